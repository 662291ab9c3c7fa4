/**
 * Whether a start may go ahead: the first start of a case is kept as it came (case-file/caseStarts.ts)
 * once the provider knows its ids; a repeat goes ahead only as it was, so that it answers as the
 * first did. A repeat with another input is refused naming the fields that differ: on a running
 * case it would be dropped; a closed case runs again only through `journey retry`.
 */
import type { ProviderClient } from '../activities/providerClient';
import { caseStartOf, recordCaseStart } from '../case-file/caseStarts';
import type { CaseFileStore } from '../case-file/store';
import { readCaseStatus } from '../client/caseReads';
import { HttpError } from './httpError';
import { refuseUnknownProviderIds } from './providerIdCheck';
import { requestDifferences } from './requestDifferences';

export interface StartRequest extends Record<string, unknown> {
  caseId: string;
  reference?: string | undefined;
  people?: { personId: string }[] | undefined;
}

/** `startedBy`: the name of the API key that sends the start, kept with the first (caseStarts.ts). */
export async function admitStart(
  request: StartRequest,
  caseFile: CaseFileStore | undefined,
  provider: ProviderClient | undefined,
  startedBy?: string,
): Promise<void> {
  const known = caseFile && (await caseStartOf(caseFile.pool, request.caseId));
  if (known) return sameAsFirst(caseFile, known.request, request);
  if (provider) await refuseUnknownProviderIds(provider, request.people ?? []);
  if (!caseFile) return;
  const kept = await recordCaseStart(caseFile.pool, {
    caseId: request.caseId,
    reference: request.reference ?? null,
    startedBy,
    // As JSON stores it: a field left out and one given as undefined are the same.
    request: JSON.parse(JSON.stringify(request)) as Record<string, unknown>,
  });
  // Another start of the case was kept first, at the same moment.
  await sameAsFirst(caseFile, kept.request, request);
}

async function sameAsFirst(caseFile: CaseFileStore, first: unknown, request: StartRequest): Promise<void> {
  const differ = requestDifferences(first, JSON.parse(JSON.stringify(request)));
  if (differ.length === 0) return;
  const fields = differ.join(', ');
  const status = await readCaseStatus(caseFile, request.caseId);
  const closed = status && (status.runStatus !== 'RUNNING' || ['completed', 'cancelled'].includes(status.state));
  if (closed)
    throw new HttpError(
      409,
      'case_closed',
      `case ${request.caseId} is ${status.state} and was started with another input (the fields that ` +
        `differ: ${fields}): ` +
        `a start changes nothing on a closed case; run it again with \`journey retry ${request.caseId}\`, ` +
        'or start a new case',
    );
  throw new HttpError(
    409,
    'start_conflict',
    `case ${request.caseId} was started with another input (the fields that differ: ${fields}): a repeated ` +
      'start must be the same as the first; to change a case, cancel it and start a new case',
  );
}
