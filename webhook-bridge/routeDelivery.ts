/**
 * Turns a verified, parsed delivery into signals: one `deliver` signal (signalWithStart) to each
 * resource workflow named by its correlation keys. Everything taken from the payload that ends up
 * in an id or in carried state is bounded: ids by boundedId, unrouted deliveries by a summary.
 */
import {
  boundedId,
  correlationKeys,
  resourceWorkflowId,
  type EnvelopeParseResult,
  type ResourceKey,
} from '../provider';
import type { ResourceDelivery } from '../client/resourceMessages';
import { deliveryIdentity } from './deliveryIdentity';
import { summariseUnrouted, trimProblems } from './unroutedSummary';

export interface DeliveryMeta {
  batchId: string | null;
  receivedAt: string;
}

export interface RoutedDelivery {
  /** Bounded; the metric label is derived from it (eventTypeLabel). */
  eventType: string;
  parse: ResourceDelivery['parse'] | 'invalid-envelope';
  targets: { resource: ResourceKey; delivery: ResourceDelivery }[];
}

/** Leaves room for `/<yyyy-mm-dd>` within the workflow id's bound. */
const UNROUTED_TYPE_MAX = 180;

/**
 * Unrouted deliveries are kept per event type and day (`resource/unrouted/<type>/<yyyy-mm-dd>`,
 * the day the bridge received them), so that no one workflow collects them for ever.
 */
export function unroutedKey(eventType: string, receivedAt: string): ResourceKey {
  return { kind: 'unrouted', id: `${boundedId(eventType, UNROUTED_TYPE_MAX)}/${receivedAt.slice(0, 10)}` };
}

export function workflowIdsOf(routed: RoutedDelivery): string[] {
  return routed.targets.map((t) => resourceWorkflowId(t.resource));
}

/** Pure: decides where a delivery goes. A body that is not an envelope is kept as unrouted too. */
export function planDelivery(parsed: EnvelopeParseResult, body: unknown, meta: DeliveryMeta): RoutedDelivery {
  const batchId = meta.batchId === null ? null : boundedId(meta.batchId);
  if (!parsed.ok) {
    const delivery: ResourceDelivery = {
      dedupeId: deliveryIdentity(batchId, 'invalid-envelope', body),
      eventType: 'invalid-envelope',
      batchId,
      webhookId: '',
      datetimeSent: meta.receivedAt,
      receivedAt: meta.receivedAt,
      parse: 'invalid-data',
      problems: trimProblems(parsed.problems),
      data: summariseUnrouted(body),
    };
    return {
      eventType: 'invalid-envelope',
      parse: 'invalid-envelope',
      targets: [{ resource: unroutedKey('invalid-envelope', meta.receivedAt), delivery }],
    };
  }
  const { delivery: d } = parsed;
  const eventType = boundedId(d.eventType);
  const delivery: ResourceDelivery = {
    dedupeId: deliveryIdentity(batchId, eventType, d.envelope.data),
    eventType,
    batchId,
    webhookId: boundedId(d.envelope.webhook_id),
    datetimeSent: d.envelope.datetime_sent,
    receivedAt: meta.receivedAt,
    parse: d.kind,
    problems: d.kind === 'invalid-data' ? trimProblems(d.problems) : undefined,
    data: d.envelope.data,
  };
  const targets = correlationKeys(d).map((key) =>
    key.kind === 'unrouted'
      ? {
          resource: unroutedKey(d.eventType, meta.receivedAt),
          delivery: { ...delivery, data: summariseUnrouted(d.envelope.data) },
        }
      : { resource: key, delivery },
  );
  return { eventType, parse: d.kind, targets };
}
