/**
 * Delivers one journey event to the LOS in the Standard Webhooks format: `webhook-id` (derived from
 * the event's business identity, the same on every retry, reset and replay), `webhook-timestamp`
 * (now: receivers refuse old timestamps, and a retry days later is a new send) and
 * `webhook-signature` (the `standardwebhooks` package). Anything but a 2xx throws, and Temporal
 * retries.
 */
import { createHash } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import type { CaseEventInput } from './caseEvent';
import type { CaseEventsConfig } from './caseEventsConfig';

export class CaseEventRejected extends Error {
  override name = 'CaseEventRejected';
}

export function caseEventId(event: Pick<CaseEventInput, 'eventKey' | 'workflowId' | 'runId' | 'sequence'>): string {
  const identity = event.eventKey ?? `${event.workflowId}\n${event.runId}\n${event.sequence}`;
  const digest = createHash('sha256').update(identity).digest('hex');
  return `evt_${digest.slice(0, 32)}`;
}

/**
 * The version of every event's body: a receiver checks it and refuses one it does not know. It
 * changes only when a field changes meaning or goes away; new fields are added under the same one.
 */
export const caseEventVersion = 1;

export interface CaseEventBody {
  type: string;
  version: number;
  timestamp: string;
  data: Record<string, unknown>;
}

export function caseEventBody(event: CaseEventInput): CaseEventBody {
  // The key is the id's source, not news: the id says it.
  const { type, occurredAt, eventKey: _key, ...data } = event;
  return { type, version: caseEventVersion, timestamp: occurredAt, data };
}

/** Returns whether it sent anything: without a URL, notifications are off. */
export async function sendCaseEvent(
  config: CaseEventsConfig,
  event: CaseEventInput,
  now = new Date(),
): Promise<boolean> {
  return deliverCaseEvent(config, caseEventId(event), caseEventBody(event), `${event.type} #${event.sequence}`, now);
}

/** One signed POST of an event under its id (the journey's, or a derived one from the outbox). */
export async function deliverCaseEvent(
  config: CaseEventsConfig,
  id: string,
  event: CaseEventBody,
  label: string,
  now = new Date(),
): Promise<boolean> {
  if (!config.url || !config.secret) return false;
  const body = JSON.stringify(event);
  const signature = new Webhook(config.secret).sign(id, now, body);
  const response = await fetch(config.url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'webhook-id': id,
      'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
      'webhook-signature': signature,
    },
    body,
    signal: AbortSignal.timeout(config.timeoutMs),
  });
  await response.body?.cancel();
  if (!response.ok) throw new CaseEventRejected(`the LOS answered ${response.status} to ${label}`);
  return true;
}
