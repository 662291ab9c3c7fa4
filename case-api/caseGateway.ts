/**
 * What the case API asks of the journeys, through the one client (client/journeyOperations.ts),
 * with every refusal turned into the API's answer (temporalErrors.ts), plus the case file's
 * evidence.
 */
import type { CaseEvidence } from '../case-file/evidence';
import type { CaseFileStore } from '../case-file/store';
import type { Client } from '@temporalio/client';
import type { OperatorActionResult } from '../client/journeyMessages';
import {
  cancelJourney,
  journeyStatus,
  listJourneys,
  resolvePicklist,
  retryStep,
  startJourney,
  waiveStep,
  type JourneyClientContext,
  type JourneyPage,
  type JourneyStatusView,
  type JourneySummary,
  type StartedJourney,
} from '../client/journeyOperations';
import { HttpError } from './httpError';
import { toHttpError } from './temporalErrors';

export type StartedCase = StartedJourney;
export type CaseSummary = JourneySummary;

export class CaseGateway {
  private readonly ctx: JourneyClientContext;

  constructor(
    client: Client,
    taskQueue: string,
    private readonly caseFile?: CaseFileStore,
  ) {
    this.ctx = { client, taskQueue };
  }

  /** What the case file holds for the case (reports, results, accounts with transactions, document metadata). */
  async evidence(caseId: string): Promise<CaseEvidence> {
    if (!this.caseFile) throw new HttpError(503, 'unavailable', 'The case file is not configured for this API process (set DATABASE_URL)');
    await this.status(caseId);
    return this.caseFile.evidence(caseId);
  }

  /** Idempotent on caseId: a repeat finds the existing journey and starts nothing. */
  start(input: unknown): Promise<StartedCase> {
    return this.answer('', () => startJourney(this.ctx, input));
  }

  status(caseId: string): Promise<JourneyStatusView> {
    return this.answer(caseId, () => journeyStatus(this.ctx, caseId));
  }

  /** One page of journeys on this API's task queue, newest first, the latest run of each case once. */
  list(state: string | undefined, pageSize: number, pageToken?: string): Promise<JourneyPage> {
    return listJourneys(this.ctx, { ...(state ? { state } : {}), pageSize, ...(pageToken ? { pageToken } : {}) }).catch((error: unknown) => {
      throw isBadToken(error) ? new HttpError(400, 'invalid_page_token', 'pageToken is not a token from an earlier page') : toHttpError(error, '');
    });
  }

  retryStep(caseId: string, step: string, reason?: string): Promise<OperatorActionResult> {
    return this.answer(caseId, () => retryStep(this.ctx, caseId, step, reason));
  }

  waiveStep(caseId: string, step: string, reason: string): Promise<OperatorActionResult> {
    return this.answer(caseId, () => waiveStep(this.ctx, caseId, step, reason));
  }

  resolvePicklist(caseId: string, providerId: string): Promise<OperatorActionResult> {
    return this.answer(caseId, () => resolvePicklist(this.ctx, caseId, providerId));
  }

  cancel(caseId: string, reason?: string): Promise<void> {
    return this.answer(caseId, () => cancelJourney(this.ctx, caseId, reason));
  }

  private async answer<T>(caseId: string, operation: () => Promise<T>): Promise<T> {
    try {
      return await operation();
    } catch (error) {
      throw toHttpError(error, caseId);
    }
  }
}

const isBadToken = (error: unknown) => (error as { code?: number }).code === 3;
