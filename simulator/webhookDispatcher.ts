/**
 * Webhook deliveries (spec §6.1–§6.3): for one occurrence, one delivery per webhook per subscribed
 * event type, all sharing one `X-Batch-Correlation-Id`; signed with the secret current when the
 * occurrence happened (so a delivery in flight across a rotation carries the old signature) and
 * unsigned when no secret exists; any 2xx a success, anything else a logged failure, never retried.
 */
import { deliveryTypesFor, type WebhookRecord } from '../provider';
import { signBody } from '../webhook-bridge/verifySignature';
import type { DeliveryFault, FaultInjector } from './faultRates';
import type { JsonLayout } from './jsonLayout';
import type { DeliveryLogEntry, SimulatorStore } from './store';

/** The data of one occurrence under each event type it is delivered as (a parent's may differ). */
export type Occurrence = Record<string, Record<string, unknown>>;

export interface WebhookDispatcher {
  /** Sends every delivery of an occurrence; resolves with their log entries once all are answered. */
  emit(eventType: string, occurrence: Occurrence): Promise<DeliveryLogEntry[]>;
  /** Sends what reordering held back and resolves when nothing is in flight. */
  idle(): Promise<void>;
}

export interface DispatcherOptions {
  faults: FaultInjector;
  /** Compact or pretty bodies, raw UTF-8 (jsonLayout.ts); compact when absent. */
  layout?: JsonLayout;
  timeoutMs?: number;
  now?: () => Date;
}

/** §6.2: the AffordabilityInsights.Completed example names the send time `sent_at_utc`. */
const SEND_TIME_FIELD: Record<string, string> = { 'AffordabilityInsights.Completed': 'sent_at_utc' };

interface Prepared {
  entry: DeliveryLogEntry;
  body: string;
  headers: Record<string, string>;
}

export function createWebhookDispatcher(store: SimulatorStore, options: DispatcherOptions): WebhookDispatcher {
  const inflight = new Set<Promise<unknown>>();
  let held: Prepared[] = [];
  const now = options.now ?? (() => new Date());

  function prepare(
    webhook: WebhookRecord,
    eventType: string,
    data: Record<string, unknown>,
    batchId: string,
  ): Prepared {
    const sentAt = now().toISOString();
    const envelope = {
      webhook_id: webhook.webhook_id,
      webhook_name: webhook.webhook_name,
      [SEND_TIME_FIELD[eventType] ?? 'datetime_sent']: sentAt,
      external_ref: webhook.external_ref,
      event_type: eventType,
      data,
    };
    const body = options.layout ? options.layout.serialise(envelope) : JSON.stringify(envelope);
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
      sent_at: sentAt,
      faults: [],
      outcome: 'pending',
      status: null,
      error: null,
    };
    return { entry, body, headers };
  }

  async function send(p: Prepared, delayMs = 0): Promise<DeliveryLogEntry> {
    if (delayMs > 0) await new Promise((r) => setTimeout(r, delayMs));
    try {
      const response = await fetch(p.entry.callback_url, {
        method: 'POST',
        headers: p.headers,
        body: p.body,
        redirect: 'manual',
        signal: AbortSignal.timeout(options.timeoutMs ?? 10_000),
      });
      await response.arrayBuffer();
      p.entry.status = response.status;
      p.entry.outcome = response.status >= 200 && response.status < 300 ? 'delivered' : 'failed';
    } catch (error) {
      p.entry.outcome = 'failed';
      p.entry.error = String((error as Error).cause ?? error);
    }
    return p.entry;
  }

  function track<T>(promise: Promise<T>): Promise<T> {
    inflight.add(promise);
    return promise.finally(() => inflight.delete(promise));
  }

  /** Applies the drawn faults; returns the sends to make now. */
  function applyFaults(p: Prepared, faults: Set<DeliveryFault>): Promise<DeliveryLogEntry>[] {
    p.entry.faults = [...faults];
    store.deliveries.push(p.entry);
    if (faults.has('dropped')) {
      p.entry.outcome = 'dropped';
      return [];
    }
    if (faults.has('tampered')) p.body = options.faults.tamper(p.body);
    if (faults.has('reordered')) {
      held.push(p);
      return [];
    }
    const delay = faults.has('delayed') ? options.faults.rates.delivery_delay_ms : 0;
    const sends = [send(p, delay)];
    if (faults.has('duplicated')) {
      const copy: Prepared = { ...p, entry: { ...p.entry, delivery_id: store.random.guid(), faults: ['duplicated'] } };
      store.deliveries.push(copy.entry);
      sends.push(send(copy, delay));
    }
    return sends;
  }

  return {
    async emit(eventType, occurrence) {
      const batchId = store.random.guid();
      const release = held;
      held = [];
      const prepared: Prepared[] = [];
      for (const webhook of store.webhooks.values()) {
        for (const type of deliveryTypesFor(eventType)) {
          const data = occurrence[type];
          if (data && webhook.event_types.includes(type)) prepared.push(prepare(webhook, type, data, batchId));
        }
      }
      const sends = prepared.flatMap((p) => applyFaults(p, options.faults.deliveryFaults()));
      // Held deliveries go out after this occurrence's: they arrive out of order.
      const all = track(
        Promise.all(sends).then(async (entries) => [...entries, ...(await Promise.all(release.map((p) => send(p))))]),
      );
      await all;
      return prepared.map((p) => p.entry);
    },
    async idle() {
      const release = held;
      held = [];
      await track(Promise.all(release.map((p) => send(p))));
      while (inflight.size > 0) await Promise.allSettled([...inflight]);
    },
  };
}
