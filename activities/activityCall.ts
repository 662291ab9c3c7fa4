/**
 * What a provider call takes from the activity it runs in (DESIGN.md §4, "once per attempt"):
 * an `Idempotency-Key` derived from the workflow, its run and the activity (stable across the
 * activity's retries, new for every step attempt and every journey run), the activity's
 * cancellation signal (a cancelled journey aborts its HTTP calls), and heartbeats while the call
 * lasts (cancellation reaches an activity only through a heartbeat). Outside an activity (tests,
 * set-up commands) there is none of this.
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

/** `<workflowId>/<runId>/<activityId>`: the same for every retry of this activity, and only for it. */
export function activityIdempotencyKey(context = currentActivity()): string | undefined {
  if (!context) return undefined;
  const { workflowExecution, activityId } = context.info;
  if (!workflowExecution) return undefined;
  return `${workflowExecution.workflowId}/${workflowExecution.runId}/${activityId}`;
}

/** Runs `work` with the activity's cancellation signal, heartbeating until it settles. */
export async function whileHeartbeating<T>(work: (signal: AbortSignal | undefined) => Promise<T>): Promise<T> {
  const context = currentActivity();
  if (!context) return work(undefined);
  context.heartbeat();
  const timer = setInterval(() => context.heartbeat(), HEARTBEAT_EVERY_MS);
  try {
    return await work(context.cancellationSignal);
  } finally {
    clearInterval(timer);
  }
}
