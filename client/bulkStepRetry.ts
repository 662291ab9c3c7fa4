/**
 * Retrying one step on many journeys at once, after a provider outage left it `failed` or
 * `expired` on each (the CLI's `journey retry-step --where …` and the case API's
 * `POST /v1/cases/retry-step` both call this). First a plan: the running journeys a visibility
 * query matches, with the step's state on each; then, when asked, `retryStep` on each with bounded
 * concurrency. Resumable: the Update id on each case is `retry-step/<requestId>/<caseId>`, so
 * running it again with the same request id answers the cases already retried with their first
 * result instead of starting another attempt.
 */
import { randomBytes } from 'node:crypto';
import {
  WorkflowNotFoundError,
  WorkflowUpdateFailedError,
  WorkflowUpdateRPCTimeoutOrCancelledError,
  isGrpcServiceError,
} from '@temporalio/client';
import { decodeSearchAttributes } from '@temporalio/common/lib/converter/payload-search-attributes';
import { BulkRetryTooManyError, JourneyClosedError, RequestIdReusedError, VisibilityQueryError } from './journeyErrors';
import { readCaseStatus } from './caseReads';
import { journeyWorkflowType } from './journeyMessages';
import { retryStep, type JourneyClientContext } from './journeyOperations';
import { bulkRetryAnswerWithinMs, bulkRetryDefaultConcurrency, bulkRetryMaxCases } from './bulkStepRetryRequest';
import { operatorActions } from './journeyNames';
import { operatorUpdateId } from './operatorRequestId';

export {
  bulkRetryAnswerWithinMs,
  bulkRetryDefaultConcurrency,
  bulkRetryMaxCases,
  bulkRetryMaxConcurrency,
  bulkStepRetryRequestSchema,
  type BulkStepRetryRequest,
} from './bulkStepRetryRequest';

export interface BulkRetryCase {
  caseId: string;
  workflowId: string;
  runId: string;
  /** The journey's state (JourneyState search attribute). */
  state: string;
  /** The step's state on this journey, read in a dry run (null: the journey has no such step, or did not answer). */
  stepState?: string | null;
}

export interface BulkRetryPlan {
  /** The visibility query as run: journeys of this task queue, running, and the caller's `where`. */
  query: string;
  step: string;
  requestId: string;
  cases: BulkRetryCase[];
  /** More journeys matched than one invocation takes (`bulkRetryMaxCases`): narrow the query. */
  more: boolean;
}

export interface BulkRetryAccepted {
  caseId: string;
  outcome: 'accepted';
  attempt: number;
  workflowId: string;
}

/** Refused: the journey's validator said no, or the journey closed since it was listed; failed: no answer. */
export interface BulkRetryNotAccepted {
  caseId: string;
  outcome: 'refused' | 'failed';
  message: string;
}

export type BulkRetryOutcome = BulkRetryAccepted | BulkRetryNotAccepted;

export interface BulkRetrySummary {
  requestId: string;
  step: string;
  fresh: boolean;
  cases: number;
  accepted: BulkRetryAccepted[];
  refused: BulkRetryNotAccepted[];
  failed: BulkRetryNotAccepted[];
}

/** A request id for a run that was given none: readable, and unique enough to never meet another. */
export function newBulkRequestId(now = new Date()): string {
  return `bulk-${now.toISOString().slice(0, 19).replace(/[-:]/g, '')}-${randomBytes(4).toString('hex')}`;
}

/** The Update id of one case's retry in a bulk run. */
export const bulkRetryUpdateId = (requestId: string, caseId: string) =>
  operatorUpdateId(operatorActions.retryStep.name, `${requestId}/${caseId}`);

/** Journeys only, running only, on this task queue, and whatever the caller's query says. */
export function bulkRetryQuery(taskQueue: string, where: string): string {
  return (
    `WorkflowType = '${journeyWorkflowType}' AND ExecutionStatus = 'Running' AND ` +
    `TaskQueue = '${taskQueue.replace(/'/g, '')}' AND (${where})`
  );
}

/**
 * The journeys the query matches (at most `bulkRetryMaxCases`), each with the step's state when
 * `readStepStates`, read from the case file's read model (`concurrency` cases at a time; null
 * without a case file): no query reaches a running journey. A visibility query Temporal refuses is
 * a VisibilityQueryError with Temporal's message.
 */
export async function planBulkStepRetry(
  ctx: JourneyClientContext,
  request: { where: string; step: string; requestId?: string | undefined; concurrency?: number },
  options: { readStepStates?: boolean; maxCases?: number } = {},
): Promise<BulkRetryPlan> {
  const maxCases = options.maxCases ?? bulkRetryMaxCases;
  const query = bulkRetryQuery(ctx.taskQueue, request.where);
  const seen = new Set<string>();
  const cases: BulkRetryCase[] = [];
  let more = false;
  let nextPageToken: Uint8Array | undefined;
  do {
    const page = await ctx.client.workflowService
      .listWorkflowExecutions({ namespace: ctx.client.options.namespace, query, pageSize: 100, nextPageToken })
      .catch((error: unknown) => {
        throw grpcCode(error) === 3
          ? new VisibilityQueryError(`Temporal refused the query: ${grpcDetails(error)}`)
          : error;
      });
    for (const execution of page.executions ?? []) {
      const workflowId = execution.execution?.workflowId ?? '';
      // The caller's `where` could widen the query past its parentheses (`… OR true`): the journeys
      // are checked again here, by type and status.
      if (execution.type?.name !== journeyWorkflowType || execution.status !== 1 || seen.has(workflowId)) continue;
      seen.add(workflowId);
      if (cases.length === maxCases) {
        more = true;
        break;
      }
      const attributes = decodeSearchAttributes(execution.searchAttributes?.indexedFields);
      cases.push({
        caseId: String(attributes.CaseId?.[0] ?? workflowId.replace(/^case\//, '')),
        workflowId,
        runId: execution.execution?.runId ?? '',
        state: String(attributes.JourneyState?.[0] ?? 'unknown'),
      });
    }
    nextPageToken = page.nextPageToken?.length ? page.nextPageToken : undefined;
  } while (nextPageToken && !more);
  const readModel = ctx.readModel;
  if (options.readStepStates && readModel) {
    await eachAtMost(request.concurrency ?? bulkRetryDefaultConcurrency, cases, async (c) => {
      const status = await readCaseStatus(readModel, c.caseId).catch(() => undefined);
      c.stepState = status?.steps[request.step]?.state ?? null;
    });
  }
  return { query, step: request.step, requestId: request.requestId ?? newBulkRequestId(), cases, more };
}

/**
 * `retryStep` on every case of the plan, `concurrency` at a time; `onProgress` hears of each case
 * as it ends. A refusal (the journey's validator, a journey closed since) is reported with its
 * message, never retried; a transient Temporal error is sent again (the Update id makes that safe).
 * A case with no answer within `answerWithinMs` is reported `failed`, and the run goes on.
 */
export async function runBulkStepRetry(
  ctx: JourneyClientContext,
  plan: BulkRetryPlan,
  request: {
    reason: string;
    fresh?: boolean | undefined;
    concurrency?: number;
    actor?: string | undefined;
    answerWithinMs?: number;
  },
  onProgress: (done: number, total: number, outcome: BulkRetryOutcome) => void = () => {},
): Promise<BulkRetrySummary> {
  if (plan.more)
    throw new BulkRetryTooManyError(
      `more than ${plan.cases.length} journeys match; narrow the query (by CaseId, ` +
        `StartTime, JourneyState…) and run it again for each part`,
    );
  const outcomes: BulkRetryOutcome[] = [];
  await eachAtMost(request.concurrency ?? bulkRetryDefaultConcurrency, plan.cases, async (c) => {
    const outcome = await retryOne(ctx, c.caseId, plan, request);
    outcomes.push(outcome);
    onProgress(outcomes.length, plan.cases.length, outcome);
  });
  const order = new Map(plan.cases.map((c, i) => [c.caseId, i]));
  outcomes.sort((a, b) => order.get(a.caseId)! - order.get(b.caseId)!);
  return {
    requestId: plan.requestId,
    step: plan.step,
    fresh: Boolean(request.fresh),
    cases: plan.cases.length,
    accepted: outcomes.filter((o): o is BulkRetryAccepted => o.outcome === 'accepted'),
    refused: outcomes.filter((o): o is BulkRetryNotAccepted => o.outcome === 'refused'),
    failed: outcomes.filter((o): o is BulkRetryNotAccepted => o.outcome === 'failed'),
  };
}

const transientTries = 3;

async function retryOne(
  ctx: JourneyClientContext,
  caseId: string,
  plan: BulkRetryPlan,
  request: { reason: string; fresh?: boolean | undefined; actor?: string | undefined; answerWithinMs?: number },
): Promise<BulkRetryOutcome> {
  const answerWithinMs = request.answerWithinMs ?? bulkRetryAnswerWithinMs;
  const deadline = Date.now() + answerWithinMs;
  // Every call for this case, the Update's polls included, ends at the deadline.
  const outcome = await ctx.client.withDeadline(deadline, () =>
    retryUntilAnswered(ctx, caseId, plan, request, deadline),
  );
  if (outcome !== 'unanswered') return outcome;
  return {
    caseId,
    outcome: 'failed',
    message:
      `no answer within ${answerWithinMs / 1000} s: the journey has not run the retry (are its ` +
      `workflow tasks failing?); run again with request id ${plan.requestId} to collect its answer`,
  };
}

async function retryUntilAnswered(
  ctx: JourneyClientContext,
  caseId: string,
  plan: BulkRetryPlan,
  request: { reason: string; fresh?: boolean | undefined; actor?: string | undefined },
  deadline: number,
): Promise<BulkRetryOutcome | 'unanswered'> {
  // Each case's retry is audited as that case's own retryStep, under the bulk run's request id.
  const options = {
    updateId: bulkRetryUpdateId(plan.requestId, caseId),
    fresh: request.fresh || undefined,
    actor: request.actor || undefined,
  };
  for (let tries = 1; ; tries++) {
    try {
      const result = await retryStep(ctx, caseId, plan.step, request.reason, options);
      return { caseId, outcome: 'accepted', attempt: result.status.attempt, workflowId: result.status.workflowId };
    } catch (error) {
      if (error instanceof WorkflowUpdateFailedError)
        return {
          caseId,
          outcome: 'refused',
          message: (error.cause as { message?: string } | undefined)?.message ?? error.message,
        };
      if (
        error instanceof JourneyClosedError ||
        error instanceof RequestIdReusedError ||
        error instanceof WorkflowNotFoundError
      )
        return { caseId, outcome: 'refused', message: error.message };
      if (Date.now() >= deadline) return 'unanswered';
      if (tries < transientTries && isTransient(error)) {
        await new Promise((r) => setTimeout(r, 500 * tries));
        continue;
      }
      return { caseId, outcome: 'failed', message: describeFailure(error) };
    }
  }
}

/**
 * Temporal busy or not ready (unavailable, deadline, exhausted, failed precondition) or an Update's
 * answer too slow.
 */
function isTransient(error: unknown): boolean {
  if (error instanceof WorkflowUpdateRPCTimeoutOrCancelledError) return true;
  const code = grpcCode(error);
  return code === 14 || code === 4 || code === 8 || code === 9;
}

function describeFailure(error: unknown): string {
  const code = grpcCode(error);
  const message = error instanceof Error ? error.message : String(error);
  return code === undefined ? message : `${message} (gRPC ${code})`;
}

function grpcCode(error: unknown): number | undefined {
  if (isGrpcServiceError(error)) return error.code;
  const cause = (error as { cause?: unknown } | null)?.cause;
  return isGrpcServiceError(cause) ? cause.code : undefined;
}

function grpcDetails(error: unknown): string {
  const e = (isGrpcServiceError(error) ? error : (error as { cause?: unknown }).cause) as
    { details?: string; message?: string } | undefined;
  return e?.details || e?.message || String(error);
}

/** Runs `work` on every item, at most `limit` at a time. */
async function eachAtMost<T>(limit: number, items: readonly T[], work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const lanes = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) await work(items[next++]!);
  });
  await Promise.all(lanes);
}
