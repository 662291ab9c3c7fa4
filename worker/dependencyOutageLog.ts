/**
 * A dependency that is down is reported, not shouted. The SDK logs every failed activity attempt
 * ("Activity failed", WARN, with the error's stack), and Temporal retries for as long as the LOS,
 * the case file or the provider is away: one outage of minutes was thousands of lines. This
 * logger sits in front of the Runtime's: a failed attempt that says a dependency is not answering
 * (refused, reset, timed out, a 5xx) becomes one line naming it and what waits on it, then one line
 * every `reportEveryMs` while it stays down, then one line when an activity that needed it
 * completes again. Every other line passes as it was.
 *
 * `dependencyOutages()` lists what is down now (the demo of `npm start` says what it waits for).
 */
import type { LogLevel, LogMetadata, Logger } from '@temporalio/common';
import { ApplicationFailure } from '@temporalio/common';

export interface DependencyOutage {
  /** Who is not answering, e.g. "the LOS (case events)". */
  dependency: string;
  /** Where, when the error says: host:port. */
  target?: string;
  since: Date;
  /** The last failure in a few words, e.g. "ECONNREFUSED". */
  reason: string;
  failures: number;
  /** Activity types whose attempts failed on it, and the workflows they belong to. */
  waiting: Set<string>;
  workflows: Set<string>;
}

const outages = new Map<string, DependencyOutage & { reportedAt: number; reportedFailures: number }>();

/** The dependencies down now, the longest down first. */
export function dependencyOutages(): DependencyOutage[] {
  return [...outages.values()].sort((a, b) => a.since.getTime() - b.since.getTime());
}

/** One line: who, where, since when. */
export const describeOutage = (o: DependencyOutage): string =>
  `${o.dependency}${o.target ? ` at ${o.target}` : ''} (not answering since ${o.since.toTimeString().slice(0, 8)})`;

const NOT_ANSWERING = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EPIPE',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_SOCKET',
  'UND_ERR_HEADERS_TIMEOUT',
]);
const PROVIDER_OUTAGE_TYPES = new Set(['ProviderTimeout', 'ProviderUnreachable']);
const DATABASE_DOWN =
  /Connection terminated|timeout exceeded when trying to connect|terminating connection|the database system is/;

type Failure = Error & { code?: string; address?: string; port?: number; cause?: unknown };

/** The error and its causes, by shape, not `instanceof Error`: undici's come from another realm under Jest. */
function chain(error: unknown): Failure[] {
  const errors: Failure[] = [];
  for (let e = error; isErrorLike(e) && errors.length < 8; e = e.cause) errors.push(e);
  return errors;
}

const isErrorLike = (value: unknown): value is Failure =>
  typeof value === 'object' && value !== null && typeof (value as Error).message === 'string';

/** The dependency a failed attempt says is not answering, or undefined (a failure of another kind). */
export function dependencyOf(
  error: unknown,
  activityType: string | undefined,
): { dependency: string; target?: string; reason: string } | undefined {
  const errors = chain(error);
  const first = errors[0];
  if (!first) return undefined;
  const located = errors.find((e) => e.address !== undefined);
  const target = located ? `${located.address}${located.port ? `:${located.port}` : ''}` : undefined;
  const code = errors.find((e) => e.code && NOT_ANSWERING.has(e.code))?.code;
  if (first instanceof ApplicationFailure) {
    if (first.nonRetryable) return undefined;
    const status = /^HTTP_(\d{3})$/.exec(first.type ?? '')?.[1];
    const outage =
      PROVIDER_OUTAGE_TYPES.has(first.type ?? '') ||
      (status !== undefined && (Number(status) >= 500 || status === '429' || status === '408'));
    return outage ? { dependency: 'the provider', reason: first.type ?? 'unavailable' } : undefined;
  }
  const overHttp =
    first.message === 'fetch failed' || first.name === 'TimeoutError' || first.name === 'CaseEventRejected';
  if (overHttp) {
    const rejected = first.name === 'CaseEventRejected' ? /answered (5\d\d|429|408)/.exec(first.message) : null;
    if (first.name === 'CaseEventRejected' && !rejected) return undefined;
    const reason = rejected
      ? `answered ${rejected[1]}`
      : (code ?? (first.name === 'TimeoutError' ? 'timed out' : 'no answer'));
    return {
      dependency: activityType === 'notifyLos' ? 'the LOS (case events)' : 'an HTTP service',
      target,
      reason,
    };
  }
  if (code || errors.some((e) => DATABASE_DOWN.test(e.message)))
    return { dependency: 'the case file', target, reason: code ?? first.message.slice(0, 80) };
  return undefined;
}

/** `inner`, with failed attempts on a dependency that is down collapsed into the lines above. */
export function dependencyOutageLogger(inner: Logger, reportEveryMs = 60_000, now = () => Date.now()): Logger {
  const log = (level: LogLevel, message: string, meta?: LogMetadata) => {
    if (message === 'Activity failed' && meta) {
      const found = dependencyOf(meta.error, meta.activityType as string | undefined);
      if (found) return noteFailure(found, meta);
    }
    if (message === 'Activity completed' && meta) noteCompleted(meta.activityType as string | undefined);
    inner.log(level, message, meta);
  };

  function noteFailure(found: NonNullable<ReturnType<typeof dependencyOf>>, meta: LogMetadata): void {
    const key = `${found.dependency} ${found.target ?? ''}`;
    const activity = String(meta.activityType ?? 'an activity');
    const workflow = String(meta.workflowId ?? '');
    let outage = outages.get(key);
    if (!outage) {
      outage = {
        ...found,
        since: new Date(now()),
        failures: 0,
        waiting: new Set(),
        workflows: new Set(),
        reportedAt: now(),
        // The line below reports the first attempt.
        reportedFailures: 1,
      };
      outages.set(key, outage);
      inner.warn(
        `dependency down: ${found.dependency}${found.target ? ` at ${found.target}` : ''} is not answering ` +
          `(${found.reason}); waiting on it: ${activity}${workflow ? ` for ${workflow}` : ''}. Temporal retries; ` +
          `reported again every ${Math.round(reportEveryMs / 1000)} s until it answers`,
      );
    }
    outage.failures++;
    outage.reason = found.reason;
    outage.waiting.add(activity);
    if (workflow) outage.workflows.add(workflow);
    if (now() - outage.reportedAt >= reportEveryMs) {
      inner.warn(
        `dependency still down: ${describeOutage(outage)}; ${outage.failures - outage.reportedFailures} failed ` +
          `attempts since the last report (${found.reason}); waiting on it: ${[...outage.waiting].join(', ')} ` +
          `for ${outage.workflows.size} workflow(s)`,
      );
      outage.reportedAt = now();
      outage.reportedFailures = outage.failures;
    }
  }

  function noteCompleted(activityType: string | undefined): void {
    for (const [key, outage] of outages) {
      if (!activityType || !outage.waiting.has(activityType)) continue;
      outages.delete(key);
      const seconds = Math.round((now() - outage.since.getTime()) / 1000);
      inner.warn(
        `dependency back: ${outage.dependency}${outage.target ? ` at ${outage.target}` : ''} answers again ` +
          `(${activityType} completed; down ${seconds} s, ${outage.failures} failed attempts)`,
      );
    }
  }

  return {
    log,
    trace: (message, meta) => log('TRACE', message, meta),
    debug: (message, meta) => log('DEBUG', message, meta),
    info: (message, meta) => log('INFO', message, meta),
    warn: (message, meta) => log('WARN', message, meta),
    error: (message, meta) => log('ERROR', message, meta),
  };
}
