/**
 * A dependency that is down is reported, not shouted: the failed attempts of an outage of 3.5
 * minutes (the LOS refusing connections, an attempt every second) become a bounded number of
 * one-line reports with no stack trace, and one line says when it is back. The errors are real
 * ones: a fetch to a port nothing listens on, and a case file connection refused.
 */
import { Client as PgClient } from 'pg';
import type { LogLevel, LogMetadata, Logger } from '@temporalio/common';
import { ApplicationFailure } from '@temporalio/common';
import { freePort } from '../../cli/freePort';
import { dependencyOf, dependencyOutageLogger, dependencyOutages } from '../../worker/dependencyOutageLog';

function recordingLogger(): Logger & { lines: string[] } {
  const lines: string[] = [];
  const log = (level: LogLevel, message: string, meta?: LogMetadata) => {
    // As the SDK's DefaultLogger prints: the message, then the metadata (an error with its stack).
    const error = meta?.error as Error | undefined;
    lines.push(...`[${level}] ${message}${error ? ` ${error.stack}` : ''}`.split('\n'));
  };
  return {
    lines,
    log,
    trace: (m, meta) => log('TRACE', m, meta),
    debug: (m, meta) => log('DEBUG', m, meta),
    info: (m, meta) => log('INFO', m, meta),
    warn: (m, meta) => log('WARN', m, meta),
    error: (m, meta) => log('ERROR', m, meta),
  };
}

async function refusedFetch(): Promise<Error> {
  const port = await freePort();
  return fetch(`http://127.0.0.1:${port}/los`, { method: 'POST' }).then(
    () => new Error('answered'),
    (error: Error) => error,
  );
}

test('an outage of the LOS over 3.5 minutes: a few lines, no stack trace, and a line when it is back', async () => {
  const error = await refusedFetch();
  const inner = recordingLogger();
  let clock = Date.parse('2026-01-01T12:01:03Z');
  const logger = dependencyOutageLogger(inner, 60_000, () => clock);
  const meta = (attempt: number, workflowId: string) => ({
    error,
    activityType: 'notifyLos',
    workflowId,
    attempt,
  });
  const window = 210_000;
  for (let ms = 0; ms <= window; ms += 1_000, clock += 1_000)
    for (const workflowId of ['case/a', 'case/b']) logger.warn('Activity failed', meta(ms / 1_000 + 1, workflowId));
  expect(dependencyOutages().map((o) => o.dependency)).toEqual(['the LOS (case events)']);
  logger.debug('Activity completed', { activityType: 'notifyLos', durationMs: 3 });
  // Left without a stack trace: 422 failed attempts, and the DefaultLogger would have printed each with its stack.
  expect(inner.lines.filter((l) => /^\s+at /.test(l))).toEqual([]);
  expect(inner.lines.filter((l) => l.startsWith('[WARN]'))).toHaveLength(1 + 3 + 1);
  expect(inner.lines[0]).toMatch(
    /^\[WARN\] dependency down: the LOS \(case events\) at 127\.0\.0\.1:\d+ is not answering \(ECONNREFUSED\); waiting on it: notifyLos for case\/a/,
  );
  expect(inner.lines[1]).toMatch(
    /^\[WARN\] dependency still down: .* \(not answering since \d\d:\d\d:\d\d\); 120 failed attempts since the last report .* for 2 workflow\(s\)$/,
  );
  expect(inner.lines.at(-1)).toMatch(/^\[DEBUG\] Activity completed/);
  expect(inner.lines.at(-2)).toMatch(
    /^\[WARN\] dependency back: the LOS \(case events\) at 127\.0\.0\.1:\d+ answers again \(notifyLos completed; down 21\d s, 422 failed attempts\)$/,
  );
  expect(dependencyOutages()).toEqual([]);
});

test('the case file refusing connections, and the provider unavailable, are dependencies; a refusal is not', async () => {
  const port = await freePort();
  const pg = new PgClient({ connectionString: `postgresql://postgres@127.0.0.1:${port}/postgres` });
  const refused = await pg.connect().then(
    () => new Error('connected'),
    (error: Error) => error,
  );
  expect(dependencyOf(refused, 'recordCreditReport')).toEqual({
    dependency: 'the case file',
    target: `127.0.0.1:${port}`,
    reason: 'ECONNREFUSED',
  });
  const unavailable = ApplicationFailure.create({
    type: 'HTTP_503',
    message: 'Provider answered 503',
    nonRetryable: false,
  });
  expect(dependencyOf(unavailable, 'createCreditReport')?.dependency).toBe('the provider');
  const refusal = ApplicationFailure.create({ type: 'HTTP_422', message: 'Provider answered 422', nonRetryable: true });
  expect(dependencyOf(refusal, 'createCreditReport')).toBeUndefined();
  expect(dependencyOf(new Error('a bug'), 'notifyLos')).toBeUndefined();
});

test('other lines pass as they were', () => {
  const inner = recordingLogger();
  const logger = dependencyOutageLogger(inner);
  logger.warn('Activity failed', { error: new Error('a bug'), activityType: 'notifyLos' });
  expect(inner.lines[0]).toBe('[WARN] Activity failed Error: a bug');
  expect(inner.lines.some((l) => /^\s+at /.test(l))).toBe(true);
});
