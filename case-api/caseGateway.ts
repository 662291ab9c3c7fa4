/**
 * What the case API asks of the journeys, through the one client (client/journeyOperations.ts),
 * with every refusal turned into the API's answer (temporalErrors.ts), plus the case file's
 * evidence.
 */
import { CaseEventLog, type LoggedCaseEvent } from '../case-file/caseEventLog';
import type { CaseEvidence } from '../case-file/evidence';
import { InvalidCursorError } from '../case-file/caseQueue';
import type { TimelineEntry } from '../case-file/caseTimeline';
import { caseStarterOf } from '../case-file/caseStarts';
import type { CaseFileStore } from '../case-file/store';
import type { Client } from '@temporalio/client';
import type { Pool } from 'pg';
import type { OperatorActionResult } from '../client/journeyMessages';
import {
  planBulkStepRetry,
  runBulkStepRetry,
  type BulkRetryPlan,
  type BulkRetrySummary,
  type BulkStepRetryRequest,
} from '../client/bulkStepRetry';
import type { Assignment } from '../case-file/caseAssignment';
import { assignCase, CaseFileRequiredError, CaseNotFoundError } from '../client/caseAssignment';
import type { OperatorIdentity } from '../client/operatorIdentity';
import { EvidenceRefreshRefusedError, type EvidenceRefreshAnswer } from '../client/evidenceRefresh';
import type { EvidenceRefreshRequest } from '../client/evidenceRefreshRequest';
import { JourneyRetryError } from '../client/journeyErrors';
import {
  cancelJourney,
  journeyStatus,
  listJourneys,
  refreshEvidence,
  resolvePicklist,
  retryStep,
  startJourney,
  waiveStep,
  type JourneyClientContext,
  type JourneyListFilters,
  type JourneyPage,
  type JourneyReadContext,
  type JourneyStatusView,
  type JourneySummary,
  type StartedJourney,
} from '../client/journeyOperations';
import type { ProviderClient } from '../activities/providerClient';
import { HttpError } from './httpError';
import { admitStart, type StartRequest } from './startAdmission';
import { toHttpError, unknownCase } from './temporalErrors';

export type StartedCase = StartedJourney;
export type CaseSummary = JourneySummary;
export type BulkRetryAnswer =
  (BulkRetryPlan & { dryRun: true }) | (BulkRetrySummary & { dryRun: false; query: string });

/** A refused refresh as the API answers it; undefined for any other error. */
function refreshRefusal(error: unknown): HttpError | undefined {
  if (error instanceof EvidenceRefreshRefusedError)
    return new HttpError(error.code === 'item_not_in_case' ? 422 : 409, error.code, error.message);
  // A closed case with nothing to carry over (no state written, no recorded input).
  if (error instanceof JourneyRetryError) return new HttpError(409, 'case_unsettled', error.message);
  return undefined;
}

export class CaseGateway {
  private readonly ctx: JourneyClientContext;

  constructor(
    client: Client,
    taskQueue: string,
    private readonly caseFile?: CaseFileStore,
    /** Asked, before a case starts, whether it knows the ids the start names (providerIdCheck.ts). */
    private readonly provider?: ProviderClient,
  ) {
    // With the case file, cases are read from its read model and operator actions audited there.
    this.ctx = { client, taskQueue, readModel: caseFile };
  }

  /** What the case file holds for the case (reports, results, accounts with transactions, document metadata). */
  async evidence(caseId: string): Promise<CaseEvidence> {
    if (!this.caseFile)
      throw new HttpError(
        503,
        'unavailable',
        'The case file is not configured for this API process (set DATABASE_URL)',
      );
    await this.status(caseId);
    return this.caseFile.evidence(caseId);
  }

  /** The console's reads of the case file; undefined without one, when reads of cases answer 503. */
  get desk(): Pick<CaseFileStore, 'caseRecord' | 'deskEvidence' | 'timeline' | 'caseMarks' | 'queueMark'> | undefined {
    return this.caseFile;
  }

  /** The case file's connections (the console's signed-out sessions); undefined without a case file. */
  get caseFilePool(): Pool | undefined {
    return this.caseFile?.pool;
  }

  /**
   * Idempotent on caseId: a repeat of the first start finds the existing journey and starts
   * nothing; another input is refused (startAdmission.ts). The start is kept under `startedBy`, the
   * caller's key name. A key scoped to its own cases (`owner`) may not start another key's case:
   * refused before its input is compared with that case's, so the answer tells nothing of it.
   */
  start(input: StartRequest, startedBy?: string, owner?: string): Promise<StartedCase> {
    return this.answer('', async () => {
      await this.refuseOthersStart(input.caseId, owner);
      await admitStart(input, this.caseFile, this.provider, startedBy);
      // Another key's start of the case may have been kept first, at the same moment.
      await this.refuseOthersStart(input.caseId, owner);
      return startJourney(this.ctx, input);
    });
  }

  /**
   * For a key scoped to its own cases (`owner`, its name): another key's case, or one no key
   * started, is not found, as a case that does not exist. Undefined: every case is visible.
   */
  async refuseUnlessStartedBy(caseId: string, owner: string | undefined): Promise<void> {
    if (owner === undefined) return;
    if ((await caseStarterOf(this.scopedCaseFile().pool, caseId)) !== owner) throw unknownCase(caseId);
  }

  private async refuseOthersStart(caseId: string, owner: string | undefined): Promise<void> {
    if (owner === undefined) return;
    const starter = await caseStarterOf(this.scopedCaseFile().pool, caseId);
    if (starter === undefined || starter === owner) return;
    throw new HttpError(
      409,
      'start_conflict',
      `case ${caseId} was started with another API key; this key sees only the cases it started`,
    );
  }

  /** Scoped keys need the case file, which records who started each case. */
  private scopedCaseFile(): CaseFileStore {
    if (!this.caseFile)
      throw new HttpError(
        503,
        'unavailable',
        'The case file is not configured for this API process (set DATABASE_URL)',
      );
    return this.caseFile;
  }

  status(caseId: string): Promise<JourneyStatusView> {
    return this.answer(caseId, () => journeyStatus(this.reads(), caseId));
  }

  /** One page of cases from the read model, newest first unless sorted otherwise. */
  async list(
    state: string | undefined,
    pageSize: number,
    pageToken?: string,
    filters: JourneyListFilters = {},
  ): Promise<JourneyPage> {
    const reads = this.reads();
    return listJourneys(reads, {
      ...filters,
      state: state || undefined,
      pageSize,
      pageToken: pageToken || undefined,
    }).catch((error: unknown) => {
      throw error instanceof InvalidCursorError
        ? new HttpError(400, 'invalid_page_token', 'pageToken is not a token from an earlier page')
        : toHttpError(error, '');
    });
  }

  /** The case's operator actions and provider records, in time order (the case file). */
  async timeline(caseId: string): Promise<TimelineEntry[]> {
    if (!this.caseFile)
      throw new HttpError(
        503,
        'unavailable',
        'The case file is not configured for this API process (set DATABASE_URL)',
      );
    await this.status(caseId);
    return this.caseFile.timeline(caseId);
  }

  /** Every event of the case, in the order recorded (the case file's event log), for a receiver that missed some. */
  async events(caseId: string): Promise<LoggedCaseEvent[]> {
    if (!this.caseFile)
      throw new HttpError(
        503,
        'unavailable',
        'The case file is not configured for this API process (set DATABASE_URL)',
      );
    await this.status(caseId);
    return new CaseEventLog(this.caseFile.pool).list(caseId);
  }

  /**
   * The operator actions, each under the identity the front end built (client/operatorIdentity.ts:
   * the API key's name or the console's operator, the `Request-Id`, the Update id an
   * `Idempotency-Key` made).
   */
  retryStep(
    caseId: string,
    step: string,
    reason: string | undefined,
    identity: OperatorIdentity,
    options: { fresh?: boolean | undefined } = {},
  ): Promise<OperatorActionResult> {
    const fresh = options.fresh ? { fresh: true } : {};
    return this.answer(caseId, () => retryStep(this.ctx, caseId, step, reason, { ...fresh, ...identity }));
  }

  waiveStep(caseId: string, step: string, reason: string, identity: OperatorIdentity): Promise<OperatorActionResult> {
    return this.answer(caseId, () => waiveStep(this.ctx, caseId, step, reason, identity));
  }

  resolvePicklist(caseId: string, providerId: string, identity: OperatorIdentity): Promise<OperatorActionResult> {
    return this.answer(caseId, () => resolvePicklist(this.ctx, caseId, providerId, identity));
  }

  /**
   * Renews a closed case's evidence (a new run); refused while it runs or when a step of it did
   * not settle (409), or for an item the case never had (422).
   */
  refreshEvidence(
    caseId: string,
    request: EvidenceRefreshRequest,
    identity: OperatorIdentity,
  ): Promise<EvidenceRefreshAnswer> {
    return this.answer(caseId, async () => {
      try {
        return await refreshEvidence(this.reads(), caseId, request, identity);
      } catch (error) {
        throw refreshRefusal(error) ?? error;
      }
    });
  }

  /** The plan of a bulk retry (dryRun), or the retry itself and its summary. */
  bulkRetryStep(
    request: BulkStepRetryRequest & { dryRun: boolean; actor?: string | undefined },
  ): Promise<BulkRetryAnswer> {
    return this.answer('', async () => {
      const plan = await planBulkStepRetry(this.ctx, request, { readStepStates: request.dryRun });
      if (request.dryRun) return { dryRun: true, ...plan };
      return { dryRun: false, query: plan.query, ...(await runBulkStepRetry(this.ctx, plan, request)) };
    });
  }

  /** Gives the case to an operator, or to nobody with null (the case file's read model; audited). */
  async assign(
    caseId: string,
    assignee: string | null,
    identity: OperatorIdentity,
    reason?: string,
  ): Promise<Assignment> {
    try {
      return await assignCase(this.ctx, caseId, assignee, identity, reason);
    } catch (error) {
      if (error instanceof CaseNotFoundError) throw unknownCase(caseId);
      if (error instanceof CaseFileRequiredError)
        throw new HttpError(
          503,
          'unavailable',
          'The case file is not configured for this API process (set DATABASE_URL)',
        );
      throw error;
    }
  }

  cancel(caseId: string, reason: string | undefined, identity: OperatorIdentity): Promise<void> {
    return this.answer(caseId, () =>
      cancelJourney(this.ctx, caseId, reason, { actor: identity.actor, requestId: identity.requestId }),
    );
  }

  /** Cases are read from the case file's read model: without a case file, this process cannot read them. */
  private reads(): JourneyReadContext {
    if (!this.caseFile)
      throw new HttpError(
        503,
        'unavailable',
        'The case file is not configured for this API process (set DATABASE_URL)',
      );
    return { ...this.ctx, readModel: this.caseFile };
  }

  private async answer<T>(caseId: string, operation: () => Promise<T>): Promise<T> {
    try {
      return await operation();
    } catch (error) {
      throw toHttpError(error, caseId);
    }
  }
}
