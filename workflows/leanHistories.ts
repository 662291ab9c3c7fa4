/**
 * The history diet of issue 13 behind one patch, `lean-histories`, asked first thing by every
 * workflow type. An execution started since records this one marker (two events: the marker and
 * the TemporalChangeVersion upsert) instead of one per older patch, and the older patches are asked
 * only by executions that lack it: `olderPatch('x')` short-circuits to true on the lean path, so it
 * adds no marker there, and replays older histories exactly as they ran.
 */
import { patched } from '@temporalio/workflow';

export const LEAN_HISTORIES_PATCH = 'lean-histories';

/** True for executions started with the lean code (memoised per run by the SDK). */
export function leanHistories(): boolean {
  return patched(LEAN_HISTORIES_PATCH);
}

/** A patch that predates the lean one: implied by it. */
export function olderPatch(id: string): boolean {
  return leanHistories() || patched(id);
}
