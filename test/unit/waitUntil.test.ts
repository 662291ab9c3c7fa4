/**
 * `waitUntil` (test/support/waitUntil.ts) as the suites rely on it: the first value wins, a deadline
 * names what did not happen, and a wait stopped by its signal probes no more (a wait beside one that
 * failed must not go on polling a stack the suite stops).
 */
import { waitUntil } from '../support/waitUntil';

test('resolves with the first value the probe returns', async () => {
  let probes = 0;
  await expect(
    waitUntil('a third probe', () => (++probes === 3 ? 'ready' : undefined), { intervalMs: 1 }),
  ).resolves.toBe('ready');
  expect(probes).toBe(3);
});

test('a deadline names what did not happen and what the probe last threw', async () => {
  const failing = waitUntil(
    'the case closed',
    () => {
      throw new Error('not yet');
    },
    { timeoutMs: 20, intervalMs: 5 },
  );
  await expect(failing).rejects.toThrow('the case closed: did not happen within 20 ms (last error: not yet)');
});

test('a wait stopped by its signal probes no more', async () => {
  const stop = new AbortController();
  let probes = 0;
  const waiting = waitUntil('a link', () => (++probes, undefined), {
    timeoutMs: 60_000,
    intervalMs: 5,
    signal: stop.signal,
  });
  await waitUntil('two probes', () => probes >= 2, { intervalMs: 1 });
  stop.abort();
  // It fails from its loop, so nothing probes after this.
  await expect(waiting).rejects.toThrow('a link: stopped');
});
