/**
 * What a provider call takes from the activity it runs in (docs/architecture.md, "Journeys", once per need):
 * the `Idempotency-Key` the workflow built from business identity (client/purchaseKey.ts), or,
 * for a caller that names none, one derived from the workflow, its run and the activity; the
 * activity's cancellation signal (a cancelled read aborts its HTTP call), and heartbeats while the
 * call lasts (cancellation reaches an activity only through a heartbeat). Outside an activity
 * (tests, set-up commands) there is none of this.
 */
import { Context } from '@temporalio/activity';

const HEARTBEAT_EVERY_MS = 1_000;

export function currentActivity(): Context | undefined {
  try {
    return Context.current();
  } catch {
    return undefined;
  }
}

/**
 * The workflow's key when it gave one; else `<workflowId>/<runId>/<activityId>` (every retry of
 * this activity, and only it).
 */
export function idempotencyKeyFor(given: string | undefined): string | undefined {
  return given ?? activityIdempotencyKey();
}

/** `<workflowId>/<runId>/<activityId>`: the same for every retry of this activity, and only for it. */
export function activityIdempotencyKey(context = currentActivity()): string | undefined {
  if (!context) return undefined;
  const { workflowExecution, activityId } = context.info;
  if (!workflowExecution) return undefined;
  return `${workflowExecution.workflowId}/${workflowExecution.runId}/${activityId}`;
}

/**
 * Runs `work` with the activity's cancellation signal, heartbeating until it settles. An activity
 * scheduled without a heartbeat timeout sends none: a resource's poll, whose attempts are short
 * reads, each heartbeat a billable action (the SDK sends the first at once) that would double what
 * a poll costs. A local activity has none either: its workflow task bounds it, and the SDK's core
 * warns of each one sent.
 */
export async function whileHeartbeating<T>(work: (signal: AbortSignal | undefined) => Promise<T>): Promise<T> {
  const context = currentActivity();
  if (!context) return work(undefined);
  if (context.info.isLocal || !context.info.heartbeatTimeoutMs) return work(context.cancellationSignal);
  context.heartbeat();
  const timer = setInterval(() => context.heartbeat(), HEARTBEAT_EVERY_MS);
  try {
    return await work(context.cancellationSignal);
  } finally {
    clearInterval(timer);
  }
}
