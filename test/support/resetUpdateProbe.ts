/**
 * Two workflows that take an Update and a signal the same way (each a change; the Update answers
 * at once) and differ in how their main loop reacts (test/replay/resetReappliesUpdate.test.ts):
 *
 * - `reactsAfterItsWait`: the loop starts a timer in the continuation of its wait for a change;
 * - `reactsOnEveryPass`: the loop starts a timer on any pass that finds a change it has not reacted
 *   to, its first pass included, as the journey's loop launches steps and publishes its state.
 *
 * Nothing in it is a journey's.
 */
import { condition, defineSignal, defineUpdate, setHandler, sleep } from '@temporalio/workflow';

export const changeSignal = defineSignal('change');
export const changeUpdate = defineUpdate<string>('change');

function changes(): { version: () => number } {
  let version = 0;
  setHandler(changeSignal, () => void version++);
  setHandler(changeUpdate, () => {
    version++;
    return 'changed';
  });
  return { version: () => version };
}

export async function reactsAfterItsWait(): Promise<never> {
  const { version } = changes();
  for (;;) {
    const seen = version();
    await condition(() => version() !== seen);
    void sleep('1 hour');
  }
}

export async function reactsOnEveryPass(): Promise<never> {
  const { version } = changes();
  let reacted = 0;
  for (;;) {
    if (version() !== reacted) void sleep('1 hour');
    reacted = version();
    await condition(() => version() !== reacted);
  }
}
