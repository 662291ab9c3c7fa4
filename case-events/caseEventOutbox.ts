/**
 * The worker's side of the derived events (reminders, SLA breaches, operator actions): every
 * `sweepIntervalMs` it inserts the events that time made due (case-file/caseEventSweep.ts), then
 * sends what the outbox holds, each with the same Standard Webhooks sender as the journey's events
 * and under its own id. A refused or failed send is tried again later, 1 s doubling to a minute,
 * for up to 7 days, as Temporal retries the journey's events. Runs in every worker: the sweep's ids
 * and the outbox's leases keep several from sending one event twice at once.
 *
 * Why the worker, not the API: the worker already holds the LOS's URL and signing secret (the API
 * processes do not), and a deployment always runs workers while journeys run.
 */
import { CaseEventLog, type LoggedCaseEvent } from '../case-file/caseEventLog';
import { sweepCaseEvents } from '../case-file/caseEventSweep';
import type { Pool } from 'pg';
import { derivedEventTimes, type CaseEventsConfig } from './caseEventsConfig';
import { deliverCaseEvent } from './sendCaseEvent';

const batch = 20;
const giveUpAfterMs = 7 * 24 * 3_600_000;
const retryDelayMs = (attempts: number) => Math.min(60_000, 1_000 * 2 ** Math.max(0, attempts - 1));

export interface CaseEventOutbox {
  /** One sweep and one pass over the outbox (the timer calls it; tests may too). */
  tick(): Promise<void>;
  stop(): Promise<void>;
}

export function startCaseEventOutbox(
  pool: Pool,
  config: CaseEventsConfig,
  onError: (error: unknown) => void = () => undefined,
): CaseEventOutbox {
  const log = new CaseEventLog(pool);
  const times = derivedEventTimes(config);
  let running: Promise<void> = Promise.resolve();
  const tick = () => (running = running.then(() => sweepAndSend(log, config, times)).catch(onError));
  const timer = setInterval(() => void tick(), times.sweepIntervalMs);
  timer.unref();
  return {
    tick,
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}

async function sweepAndSend(
  log: CaseEventLog,
  config: CaseEventsConfig,
  times: ReturnType<typeof derivedEventTimes>,
): Promise<void> {
  await log.run((c) => sweepCaseEvents(c, times));
  // Without a URL nothing is sent: the events stay listed by the events endpoint.
  if (!config.url || !config.secret) return;
  for (
    let due = await log.claimDue(batch, leaseMs(config));
    due.length > 0;
    due = await log.claimDue(batch, leaseMs(config))
  ) {
    await Promise.all(due.map((event) => send(log, config, event)));
    if (due.length < batch) return;
  }
}

/** Longer than a send can take: no other worker takes an event while this one may still be sending it. */
const leaseMs = (config: CaseEventsConfig) => config.timeoutMs * 2 + 1_000;

async function send(
  log: CaseEventLog,
  config: CaseEventsConfig,
  event: LoggedCaseEvent & { attempts: number },
): Promise<void> {
  const body = { type: event.type, version: event.version, timestamp: event.occurredAt, data: event.data };
  try {
    await deliverCaseEvent(config, event.id, body, `${event.type} ${event.id}`);
    await log.markDelivered(event.id);
  } catch (error) {
    await log.deferred(event.id, (error as Error).message, retryDelayMs(event.attempts), giveUpAfterMs);
  }
}
