/**
 * The history diet of issue 13 behind one patch per execution, asked first thing by every workflow
 * type: `lean-histories-3` for executions started since a resource replays each occurrence once,
 * else `lean-histories-2` for those started since resources close after their outcome, else
 * `lean-histories` for those started with the first lean code. An execution records one marker
 * (two events: the marker and the TemporalChangeVersion upsert) instead of one per older patch, and
 * the older patches are asked only by executions that lack both: `olderPatch('x')` short-circuits
 * to true on the lean path, so it adds no marker there, and replays older histories exactly as they ran.
 */
import { patched } from '@temporalio/workflow';

export const LEAN_HISTORIES_PATCH = 'lean-histories';

/**
 * The diet's second step, asked before the first so that an execution started since records only
 * this marker: a resource workflow closes soon after its outcome reached its subscribers instead of
 * after 30 days of quiet (resourceWorkflow.ts). Implies everything `lean-histories` does.
 */
export const LEAN_HISTORIES_2_PATCH = 'lean-histories-2';

/**
 * The diet's third step: a resource replays its log to a new subscriber one occurrence at a time,
 * as it forwards live deliveries (the child delivery of an occurrence whose parent was told adds
 * nothing). Replaying both sent the step a second signal after the first had settled it; a step
 * that closed on the first made the second fail (a failed external signal in every journey whose
 * document was processed before its step subscribed). Implies everything `lean-histories-2` does.
 */
export const LEAN_HISTORIES_3_PATCH = 'lean-histories-3';

/** True for executions started since a resource replays each occurrence once. */
export function leanHistories3(): boolean {
  return patched(LEAN_HISTORIES_3_PATCH);
}

/** True for executions started since resource workflows close after their outcome. */
export function leanHistories2(): boolean {
  return leanHistories3() || patched(LEAN_HISTORIES_2_PATCH);
}

/** True for executions started with the lean code (memoised per run by the SDK). */
export function leanHistories(): boolean {
  return leanHistories2() || patched(LEAN_HISTORIES_PATCH);
}

/** A patch that predates the lean one: implied by it. */
export function olderPatch(id: string): boolean {
  return leanHistories() || patched(id);
}
