/**
 * What an operator does with the case file: upload a document for a journey to name, read a
 * case's evidence (by step attempt, or all of it as JSON), export a document, and purge a closed
 * case (erasure: the case file's rows, and the bridge's dead letters and quarantined files of the
 * case in the bridge's spool directory on this machine).
 */
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { CaseEvidence } from '../case-file/evidence';
import type { StoredDocument } from '../case-file/documentRecords';
import type { CaseFileStore } from '../case-file/store';
import { documentKindSchema, type DocumentKind } from '../provider';
import { journeyWorkflowId } from '../client/journeyMessages';
import type { JourneyClientContext } from '../client/journeyOperations';
import { JourneyCommandError } from './journeyInputFile';
import { formatPurchases } from './journeyFormat';
import { bridgeEnvironment } from '../webhook-bridge/config';
import { removeCaseDeliveries } from '../webhook-bridge/keptDeliveries';

/** Largest document accepted: the simulator's (and our assumed provider's) body limit, Base64 included. */
export const MAX_DOCUMENT_BYTES = 7 * 1024 * 1024;

export interface DocumentFile {
  fileName: string;
  content: Buffer;
  documentType: DocumentKind | null;
}

/** Reads and checks the file before anything connects. */
export function readDocumentFile(file: string, type: string | undefined): DocumentFile {
  const kind = type === undefined ? null : documentKindSchema.safeParse(type);
  if (kind && !kind.success)
    throw new JourneyCommandError(`unknown document type ${type}; one of ${documentKindSchema.options.join(', ')}`);
  let size: number;
  try {
    size = statSync(file).size;
  } catch (error) {
    throw new JourneyCommandError(
      `cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
    );
  }
  if (size === 0) throw new JourneyCommandError(`${file} is empty`);
  if (size > MAX_DOCUMENT_BYTES)
    throw new JourneyCommandError(`${file} has ${size} bytes; documents are at most ${MAX_DOCUMENT_BYTES}`);
  return { fileName: path.basename(file), content: readFileSync(file), documentType: kind ? kind.data : null };
}

export async function uploadDocument(
  store: CaseFileStore,
  caseId: string,
  file: DocumentFile,
): Promise<StoredDocument> {
  return store.putDocument({ caseId, fileName: file.fileName, documentType: file.documentType, content: file.content });
}

/** What a journey input names to use the uploaded document. */
export function documentReference(doc: StoredDocument): {
  document_id: string;
  file_name: string;
  document_type?: string;
} {
  return { document_id: doc.document_id, file_name: doc.file_name, document_type: doc.document_type || undefined };
}

export async function exportDocument(
  store: CaseFileStore,
  caseId: string,
  documentId: string,
  file: string,
): Promise<StoredDocument> {
  const doc = await store.readDocument(documentId);
  if (!doc || doc.case_id !== caseId) throw new JourneyCommandError(`case ${caseId} has no document ${documentId}`);
  writeFileSync(file, doc.content, { mode: 0o600 });
  const { content: _content, ...metadata } = doc;
  return metadata;
}

/**
 * Deletes a case's data, unless its journey still runs (a running step would write again): the
 * case file's, then the bridge's dead letters and quarantined files that name the case, one of its
 * people or a provider id of its steps or purchases (BRIDGE_SPOOL_DIR, `.data/spool` by default).
 */
export async function purgeCaseFile(
  ctx: JourneyClientContext,
  store: CaseFileStore,
  caseId: string,
  spoolDir: string = bridgeEnvironment.BRIDGE_SPOOL_DIR.parse(process.env.BRIDGE_SPOOL_DIR),
): Promise<Record<string, number>> {
  const description = await ctx.client.workflow
    .getHandle(journeyWorkflowId(caseId))
    .describe()
    .catch(() => undefined);
  if (description?.status.name === 'RUNNING') {
    throw new JourneyCommandError(
      `case/${caseId} is still running: cancel it (journey cancel ${caseId}) or let it finish, then purge`,
    );
  }
  // Read before the purge blanks them: the ids the bridge's kept deliveries are recognised by.
  const ids = await caseIds(store, caseId);
  const counts = await store.purge(caseId);
  const removed = removeCaseDeliveries(spoolDir, ids);
  return { ...counts, bridge_dead_letters: removed.deadLetters, bridge_quarantined: removed.quarantined };
}

/** The case's id, its people's, and the provider ids of its steps and purchases. */
async function caseIds(store: CaseFileStore, caseId: string): Promise<string[]> {
  const record = await store.caseRecord(caseId);
  const purchases = await store.purchases(caseId);
  return [
    caseId,
    ...(record?.applicants ?? []).map((a) => a.personId),
    ...Object.keys(record?.steps ?? {}).flatMap((key) => key.split('/').slice(1)),
    ...Object.values(record?.steps ?? {}).flatMap((step) => Object.values(step.providerIds)),
    ...purchases.flatMap((p) => (p.provider_id === null ? [] : [p.provider_id])),
  ];
}

type Row = Record<string, unknown>;

/** The case file by step attempt: one line per record, then the documents. */
export function formatEvidence(evidence: CaseEvidence): string {
  const byAttempt = new Map<string, string[]>();
  const add = (row: Row, line: string) => {
    const attempt = String(row.attempt_id);
    byAttempt.set(attempt, [...(byAttempt.get(attempt) ?? []), line]);
  };
  for (const r of evidence.creditReports) add(r, `credit report ${r.report_id}: ${r.status}${headline(r.report)}`);
  for (const r of evidence.idvResults)
    add(
      r,
      `identity verification ${r.request_id} (person ${r.person_id}): ` +
        `${r.status}, ${r.verification_status ?? 'no verdict'}`,
    );
  for (const a of evidence.bankAccounts)
    add(
      a,
      `account ${a.bank_name} ${a.account_number_masked ?? ''}: ` +
        `${a.transactions.length} transactions${span(a.transactions)}`,
    );
  for (const i of evidence.affordabilityInsights)
    add(
      i,
      `affordability ${i.request_id}: income ${i.monthly_income} expenditure ` +
        `${i.monthly_expenditure} ${i.currency} a month; ${i.transactions.length} transactions`,
    );
  for (const r of evidence.incomeEmployerResults)
    add(
      r,
      `income and employer ${r.request_id}: ${r.status}${r.employer_name ? `, ${r.employer_name}` : ''}` +
        `${r.annual_income !== null ? `, ${r.annual_income} ${r.currency} a year` : ''}`,
    );
  // The upload's answer; the processing outcome arrives by webhook and is in the step's status.
  for (const d of evidence.providerDocuments)
    add(
      d,
      `provider document ${d.provider_document_id} (${d.file_name})` +
        `${d.document_id ? ` from document ${d.document_id}` : ''}: ${d.status} when uploaded`,
    );
  const lines = [`case ${evidence.caseId}: case file`];
  // Purchases outlive a purge (the record of what was bought): an empty case file still lists them.
  if (byAttempt.size === 0 && evidence.documents.length === 0)
    return [`${lines[0]} is empty`, ...formatPurchases(evidence.purchases)].join('\n');
  for (const [attempt, entries] of byAttempt) lines.push(`  ${attempt}`, ...entries.map((e) => `    ${e}`));
  if (evidence.documents.length) lines.push('  documents');
  for (const d of evidence.documents)
    lines.push(
      `    ${d.document_id} ${d.file_name} (${d.document_type ?? 'untyped'}, ` +
        `${d.size_bytes} bytes, sha256 ${d.sha256.slice(0, 12)}…)`,
    );
  lines.push(...formatPurchases(evidence.purchases));
  return lines.join('\n');
}

function headline(report: unknown): string {
  const r = report as { company_name?: string; credit_score?: number } | null;
  return r?.company_name ? ` — ${r.company_name}, score ${r.credit_score}` : '';
}

function span(transactions: Row[]): string {
  const dates = transactions.map((t) => String(t.booking_date)).sort();
  return dates.length ? ` from ${dates[0]} to ${dates[dates.length - 1]}` : '';
}
