/**
 * Turns a verified, parsed delivery into signals: one `deliver` signal (signalWithStart) to each
 * resource workflow named by its correlation keys.
 */
import { correlationKeys, type EnvelopeParseResult, type ResourceKey } from '../provider';
import type { ResourceDelivery } from '../workflows/messages';
import { deliveryIdentity } from './deliveryIdentity';

export interface DeliveryMeta {
  batchId: string | null;
  receivedAt: string;
}

export interface RoutedDelivery {
  eventType: string;
  parse: ResourceDelivery['parse'] | 'invalid-envelope';
  targets: { resource: ResourceKey; delivery: ResourceDelivery }[];
}

/** Pure: decides where a delivery goes. A body that is not an envelope is kept as unrouted too. */
export function planDelivery(parsed: EnvelopeParseResult, body: unknown, meta: DeliveryMeta): RoutedDelivery {
  if (!parsed.ok) {
    const data = { body } as Record<string, unknown>;
    const delivery: ResourceDelivery = {
      dedupeId: deliveryIdentity(meta.batchId, 'invalid-envelope', body),
      eventType: 'invalid-envelope',
      batchId: meta.batchId,
      webhookId: '',
      datetimeSent: meta.receivedAt,
      receivedAt: meta.receivedAt,
      parse: 'invalid-data',
      problems: parsed.problems,
      data,
    };
    return { eventType: 'invalid-envelope', parse: 'invalid-envelope', targets: [{ resource: { kind: 'unrouted', id: 'invalid-envelope' }, delivery }] };
  }
  const { delivery: d } = parsed;
  const delivery: ResourceDelivery = {
    dedupeId: deliveryIdentity(meta.batchId, d.eventType, d.envelope.data),
    eventType: d.eventType,
    batchId: meta.batchId,
    webhookId: d.envelope.webhook_id,
    datetimeSent: d.envelope.datetime_sent,
    receivedAt: meta.receivedAt,
    parse: d.kind,
    ...(d.kind === 'invalid-data' ? { problems: d.problems } : {}),
    data: d.envelope.data,
  };
  return { eventType: d.eventType, parse: d.kind, targets: correlationKeys(d).map((resource) => ({ resource, delivery })) };
}
