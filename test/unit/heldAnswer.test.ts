/**
 * The simulator's injected latency (simulator/scriptedFaults.ts `holdResponse`) holds an answer
 * back for its delay; a client that gives up first closes the connection, and the hold ends with
 * it, leaving no timer that would keep a stopped simulator's process alive for the rest of the
 * delay (the suites' environment fails a test file that leaves one).
 */
import type { AddressInfo } from 'node:net';
import express from 'express';
import { holdResponse } from '../../simulator/scriptedFaults';
import { waitUntil } from '../support/waitUntil';

/** The timer a hold of `ms` started (a Node Timeout: `_destroyed` once cleared or fired). */
function timerOf(spy: jest.SpiedFunction<typeof setTimeout>, ms: number): { _destroyed?: boolean } | undefined {
  const index = spy.mock.calls.findIndex((call) => call[1] === ms);
  return index < 0 ? undefined : (spy.mock.results[index]?.value as { _destroyed?: boolean });
}

test('an answer held for 30 s whose client gave up leaves no timer behind', async () => {
  let arrived = false;
  const app = express().post('/', (_req, res) => {
    holdResponse(res, 30_000);
    arrived = true;
    res.status(201).json({ created: true });
  });
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const timers = jest.spyOn(global, 'setTimeout');
  try {
    const gaveUp = new AbortController();
    const call = fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`, {
      method: 'POST',
      signal: gaveUp.signal,
    }).catch((error: Error) => error.name);
    await waitUntil('the call handled, its answer held', () => arrived);
    const hold = timerOf(timers, 30_000);
    expect(hold?._destroyed).toBe(false);
    gaveUp.abort();
    expect(await call).toBe('AbortError');
    await waitUntil('the hold ended with the connection', () => hold?._destroyed === true, { timeoutMs: 5_000 });
  } finally {
    timers.mockRestore();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});
