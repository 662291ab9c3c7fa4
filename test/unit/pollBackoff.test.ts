/**
 * The resource workflow's polling schedule (workflows/pollBackoff.ts): the first poll after
 * `reconcileAfter`, then doubling to the cap. The workflow test (resourcePolling.test.ts) shows the
 * resource following it, and a delivery starting it again.
 */
import { pollInterval } from '../../workflows/pollBackoff';

const HOUR = 3_600_000;

test('the first poll waits reconcileAfter, each next one twice as long, up to the cap', () => {
  const intervals = [0, 1, 2, 3, 4, 5, 6].map((polls) => pollInterval(HOUR, 12 * HOUR, polls) / HOUR);
  expect(intervals).toEqual([1, 2, 4, 8, 12, 12, 12]);
});

test('three days of waiting with the defaults: eight polls (hours 1, 3, 7, 15, 27, 39, 51, 63) instead of seventy-two', () => {
  let at = 0;
  let polls = 0;
  while ((at += pollInterval(HOUR, 12 * HOUR, polls)) <= 72 * HOUR) polls++;
  expect(polls).toBe(8);
});

test('a cap shorter than reconcileAfter never polls sooner than reconcileAfter; a long wait stays finite', () => {
  expect(pollInterval(HOUR, 1_000, 0)).toBe(HOUR);
  expect(pollInterval(HOUR, 1_000, 5)).toBe(HOUR);
  expect(pollInterval(HOUR, 12 * HOUR, 10_000)).toBe(12 * HOUR);
});
