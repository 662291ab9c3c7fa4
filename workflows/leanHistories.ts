/**
 * The history diet of issue 13 behind one patch per execution, asked first thing by every workflow
 * type: `lean-histories-2` for executions started since resources close after their outcome, else
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

/** True for executions started since resource workflows close after their outcome. */
export function leanHistories2(): boolean {
  return patched(LEAN_HISTORIES_2_PATCH);
}

/** True for executions started with the lean code (memoised per run by the SDK). */
export function leanHistories(): boolean {
  return leanHistories2() || patched(LEAN_HISTORIES_PATCH);
}

/** A patch that predates the lean one: implied by it. */
export function olderPatch(id: string): boolean {
  return leanHistories() || patched(id);
}
