/**
 * `journey retry` of a closed journey: a new run on the same workflow id that carries every
 * completed or waived step over (no provider call again) and runs the others as their next attempt,
 * each continuing its need: the same idempotency keys, the report or request the provider holds.
 */
import { WorkflowExecutionAlreadyStartedError } from '@temporalio/client';
import { decodeFromPayloadsAtIndex } from '@temporalio/common/lib/internal-non-workflow';
import { JourneyRetryError } from './journeyErrors';
import type { CarryOver, PurchaseContinuation, ValidOnboardCaseInput } from './journeyInput';
import { readCaseStatus } from './caseReads';
import {
  journeyWorkflowId,
  journeyWorkflowType,
  type JourneyStatus,
  type JourneyStep,
  type OnboardCaseWorkflow,
} from './journeyMessages';
import { journeyHandle, type JourneyClientContext, type JourneyReadContext } from './journeyOperations';
import { openRequestsOf } from './openRequests';
import { caseSearchAttributes } from './searchAttributes';
import { journeySummary } from './workflowMetadata';

export interface RetryPlan {
  caseId: string;
  /** Steps taken over unchanged: no provider call. */
  carriedOver: string[];
  /** Steps that run again, each as its next attempt. */
  rerun: { step: string; attempt: number; was: string }[];
  input: ValidOnboardCaseInput;
}

/** What `journey retry` would do with a closed journey (nothing is started). */
export async function planJourneyRetry(ctx: JourneyReadContext, caseId: string): Promise<RetryPlan> {
  const status = await closedStatus(ctx, caseId);
  const input = await originalInput(ctx, caseId);
  const carry: CarryOver = { steps: {}, attempts: {}, purchases: {} };
  const plan: RetryPlan = { caseId, carriedOver: [], rerun: [], input };
  for (const [key, step] of Object.entries(status.steps)) {
    const attempt = step.attempt ?? 1;
    carry.attempts[key] = attempt;
    if (carriesOver(key, step, status.steps)) {
      carry.steps[key] = carriedStep(step);
      plan.carriedOver.push(key);
      continue;
    }
    plan.rerun.push({ step: key, attempt: attempt + 1, was: step.state });
    const continued = continuationOf(step);
    if (continued) carry.purchases[key] = continued;
  }
  plan.input = { ...input, carryOver: carry };
  return plan;
}

/** A completed or waived step as a new run takes it over: no provider call again. */
export function carriedStep(step: JourneyStep): CarryOver['steps'][string] {
  const { state, attempt, workflowId, providerIds, reason, detail, lastEvent, evidence } = step;
  return {
    state: state as 'completed' | 'waived',
    attempt: attempt ?? 1,
    workflowId,
    providerIds,
    reason,
    detail,
    lastEvent,
    evidence,
  };
}

/**
 * The closed run's last status, from the read model (no query, so no replay of workflow code that
 * may be gone from the workers). A read model that still says RUNNING is checked with Temporal: a
 * terminated run never wrote its end, and its last written state is what it left. A run still
 * running is refused with `whenRunning`'s error.
 */
export async function closedStatus(
  ctx: JourneyReadContext,
  caseId: string,
  whenRunning: (caseId: string) => Error = stillRunning,
): Promise<JourneyStatus> {
  const read = await readCaseStatus(ctx.readModel, caseId);
  if (read && read.runStatus !== 'RUNNING') return read;
  const description = await journeyHandle(ctx, caseId).describe();
  if (description.status.name === 'RUNNING') throw whenRunning(caseId);
  if (!read)
    throw new JourneyRetryError(
      `case/${caseId} closed before it wrote its state to the case file: there is nothing to carry over`,
    );
  return read;
}

const stillRunning = (caseId: string) =>
  new JourneyRetryError(`case/${caseId} is still running: use retry-step for one step, or cancel it first`);

/**
 * Completed steps carry over; a waived one too, unless a step that depends on it has not settled:
 * that step could never move (affordability waits for banking), so the waived one runs again.
 */
function carriesOver(key: string, step: JourneyStep, steps: Record<string, JourneyStep>): boolean {
  if (step.state === 'completed') return true;
  if (step.state !== 'waived') return false;
  return !Object.values(steps).some((s) => s.dependsOn === key && s.state !== 'completed' && s.state !== 'waived');
}

/** What the step's next attempt continues (client/purchaseKey.ts): its need and what the provider holds for it. */
function continuationOf(step: JourneyStep): PurchaseContinuation | undefined {
  const need = step.need ?? 0;
  if (need === 0) return undefined;
  const attempts = step.attempts ?? [];
  const sameNeed = attempts.filter((a) => a.need === need);
  const providerIds = Object.assign({}, ...sameNeed.map((a) => a.providerIds)) as Record<string, string>;
  return {
    need,
    needSpent: attempts.at(-1)?.needSpent === true,
    providerIds,
    openRequests: openRequestsOf(attempts),
  };
}

/** Starts the new run of a closed journey (same workflow id); answers its run id. */
export async function retryJourney(ctx: JourneyReadContext, plan: RetryPlan): Promise<string> {
  try {
    return await startNewRun(ctx, plan.caseId, plan.input);
  } catch (error) {
    if (!(error instanceof WorkflowExecutionAlreadyStartedError)) throw error;
    throw new JourneyRetryError(
      `case/${plan.caseId} has a run open on it: the journey is still delivering its last writes and ` +
        'events, or another retry has just started it; retry again once it has closed',
    );
  }
}

/**
 * How long a start waits for a finishing run to close. The read model says a run closed a moment
 * before it has: the journey writes its end in its last workflow task and closes in the next, once
 * that write is taken.
 */
export const FINISHING_RUN_WAIT_MS = 10_000;

/**
 * Starts a new run on a closed journey's workflow id with `input`; `memo` is kept on the run (what
 * started it, for a repeat of the request to find). Answers the run's id. A run still open there
 * that the read model says has closed is finishing: the start waits for it to close, up to
 * FINISHING_RUN_WAIT_MS, and is tried once more. Any other open run (one another request has just
 * started) fails the start at once.
 */
export async function startNewRun(
  ctx: JourneyReadContext,
  caseId: string,
  input: ValidOnboardCaseInput,
  memo?: Record<string, unknown>,
): Promise<string> {
  const start = () => startRun(ctx, caseId, input, memo);
  try {
    return await start();
  } catch (error) {
    if (!(error instanceof WorkflowExecutionAlreadyStartedError)) throw error;
    const finishing = await finishingRun(ctx, caseId);
    if (!finishing) throw error;
    await closeOf(ctx, caseId, finishing);
    return start();
  }
}

/** The journey's open run, when the read model says it has closed: it is in its last workflow task. */
async function finishingRun(ctx: JourneyReadContext, caseId: string): Promise<string | undefined> {
  const [read, open] = await Promise.all([
    readCaseStatus(ctx.readModel, caseId),
    journeyHandle(ctx, caseId).describe(),
  ]);
  const finishing = open.status.name === 'RUNNING' && read?.runId === open.runId && read.runStatus !== 'RUNNING';
  return finishing ? open.runId : undefined;
}

async function startRun(
  ctx: JourneyClientContext,
  caseId: string,
  input: ValidOnboardCaseInput,
  memo?: Record<string, unknown>,
): Promise<string> {
  const started = await ctx.client.workflow.start<OnboardCaseWorkflow>(journeyWorkflowType, {
    workflowId: journeyWorkflowId(caseId),
    taskQueue: ctx.taskQueue,
    args: [input],
    workflowIdReusePolicy: 'ALLOW_DUPLICATE',
    staticSummary: journeySummary(caseId),
    typedSearchAttributes: caseSearchAttributes(caseId, 'running'),
    memo,
  });
  return started.firstExecutionRunId;
}

/** Waits until the run closes, however it ends, or FINISHING_RUN_WAIT_MS pass. */
async function closeOf(ctx: JourneyClientContext, caseId: string, runId: string): Promise<void> {
  const handle = ctx.client.workflow.getHandle(journeyWorkflowId(caseId), runId, { followRuns: false });
  await ctx.client.withDeadline(Date.now() + FINISHING_RUN_WAIT_MS, () => handle.result()).catch(() => undefined);
}

/** The input the latest run started with, decoded with the client's data converter. */
export async function originalInput(ctx: JourneyClientContext, caseId: string): Promise<ValidOnboardCaseInput> {
  const history = await journeyHandle(ctx, caseId).fetchHistory();
  const payloads = history.events?.[0]?.workflowExecutionStartedEventAttributes?.input?.payloads;
  if (!payloads?.length) throw new JourneyRetryError(`case/${caseId} has no recorded input to retry with`);
  const input = await decodeFromPayloadsAtIndex<ValidOnboardCaseInput & Record<string, unknown>>(
    ctx.client.options.loadedDataConverter,
    0,
    payloads,
  );
  // A run that continued an earlier one (workflows/journeyContinuation.ts) holds that run's state
  // too: a retry starts from the carry-over alone.
  const { continued: _continued, continueAsNewAtHistoryLength: _at, ...original } = input;
  return original as ValidOnboardCaseInput;
}
