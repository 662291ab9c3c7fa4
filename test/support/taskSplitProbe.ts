/**
 * A workflow whose one decision depends on how many signals one activation holds: a signal seen
 * alone starts a timer, two seen together end the run. Its live history replays only if the worker
 * that ran it took each workflow task's events in one activation, as a replay does
 * (test/faults/querySplitsTask.test.ts). Nothing in it is a journey's.
 */
import { condition, defineQuery, defineSignal, setHandler, sleep } from '@temporalio/workflow';

export const countSignal = defineSignal('count');
export const countQuery = defineQuery<number>('count');

export async function taskSplitProbe(): Promise<string> {
  let count = 0;
  setHandler(countSignal, () => void count++);
  setHandler(countQuery, () => count);
  await condition(() => count > 0);
  if (count > 1) return 'both signals in one activation';
  await sleep('1 hour');
  return 'one signal alone';
}
