/**
 * Webhook deliveries (spec §6.1–§6.3): for one occurrence, one delivery per webhook per subscribed
 * event type, all sharing one `X-Batch-Correlation-Id`; signed with the current secret when one
 * exists; any 2xx a success, anything else a logged failure that is never retried.
 */
import { deliveryTypesFor, type WebhookRecord } from '../provider';
import { signBody } from '../webhook-bridge/verifySignature';
import type { DeliveryLogEntry, SimulatorStore } from './store';

/** The data of one occurrence under each event type it is delivered as (a parent may differ). */
export type Occurrence = Record<string, Record<string, unknown>>;

export interface WebhookDispatcher {
  /** Sends every delivery of an occurrence; resolves with their log entries once all are answered. */
  emit(eventType: string, occurrence: Occurrence): Promise<DeliveryLogEntry[]>;
  /** Resolves when no delivery is in flight. */
  idle(): Promise<void>;
}

export interface DispatcherOptions {
  timeoutMs?: number;
  now?: () => Date;
}

export function createWebhookDispatcher(store: SimulatorStore, options: DispatcherOptions = {}): WebhookDispatcher {
  const inflight = new Set<Promise<unknown>>();
  const now = options.now ?? (() => new Date());

  async function send(webhook: WebhookRecord, eventType: string, data: Record<string, unknown>, batchId: string): Promise<DeliveryLogEntry> {
    const envelope = {
      webhook_id: webhook.webhook_id,
      webhook_name: webhook.webhook_name,
      datetime_sent: now().toISOString(),
      external_ref: webhook.external_ref,
      event_type: eventType,
      data,
    };
    const body = JSON.stringify(envelope);
    // The secret is read at send time: deliveries after a rotation carry the new signature.
    const secret = store.webhookSecret?.secret;
    const headers: Record<string, string> = { 'content-type': 'application/json', 'x-batch-correlation-id': batchId };
    if (secret) headers['x-hmac-sha256-signature'] = signBody(body, secret);
    const entry: DeliveryLogEntry = {
      delivery_id: store.random.guid(),
      batch_id: batchId,
      webhook_id: webhook.webhook_id,
      event_type: eventType,
      callback_url: webhook.webhook_callback_url,
      signed: Boolean(secret),
      sent_at: envelope.datetime_sent,
      outcome: 'pending',
      status: null,
      error: null,
    };
    store.deliveries.push(entry);
    try {
      const response = await fetch(webhook.webhook_callback_url, {
        method: 'POST',
        headers,
        body,
        redirect: 'manual',
        signal: AbortSignal.timeout(options.timeoutMs ?? 10_000),
      });
      await response.arrayBuffer();
      entry.status = response.status;
      entry.outcome = response.status >= 200 && response.status < 300 ? 'delivered' : 'failed';
    } catch (error) {
      entry.outcome = 'failed';
      entry.error = String((error as Error).cause ?? error);
    }
    return entry;
  }

  return {
    async emit(eventType, occurrence) {
      const batchId = store.random.guid();
      const sends: Promise<DeliveryLogEntry>[] = [];
      for (const webhook of store.webhooks.values()) {
        for (const type of deliveryTypesFor(eventType)) {
          const data = occurrence[type];
          if (!data || !webhook.event_types.includes(type)) continue;
          sends.push(send(webhook, type, data, batchId));
        }
      }
      const all = Promise.all(sends);
      inflight.add(all);
      try {
        return await all;
      } finally {
        inflight.delete(all);
      }
    },
    async idle() {
      while (inflight.size > 0) await Promise.allSettled([...inflight]);
    },
  };
}
