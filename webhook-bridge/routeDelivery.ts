/**
 * Turns a verified, parsed delivery into signals: one `deliver` signal (signalWithStart) to each
 * resource workflow named by its correlation keys. Everything taken from the payload that ends up
 * in an id or in carried state is bounded: ids by boundedId, unrouted deliveries by a summary.
 */
import { hash } from 'node:crypto';
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

/** Leaves room for `/<yyyy-mm-ddThh>/<shard>` within the workflow id's bound. */
const UNROUTED_TYPE_MAX = 180;
/** Workflows an event type's unrouted deliveries of one hour are spread over. */
export const UNROUTED_SHARDS = 16;

/**
 * Unrouted deliveries are shared by every case, and a new event type may come in a flood: they are
 * kept per event type, hour (the bridge's receipt) and one of UNROUTED_SHARDS shards chosen by a
 * hash of the delivery's identity (`resource/unrouted/<type>/<yyyy-mm-ddThh>/<00-15>`). A workflow
 * takes at most about a sixteenth of a type's unrouted deliveries, for one hour; the same delivery,
 * spooled or replayed, goes to the same workflow, which dedupes it.
 */
export function unroutedKey(eventType: string, receivedAt: string, identity: string): ResourceKey {
  const shard = parseInt(hash('sha256', identity, 'hex').slice(0, 8), 16) % UNROUTED_SHARDS;
  const hour = receivedAt.slice(0, 13);
  return {
    kind: 'unrouted',
    id: `${boundedId(eventType, UNROUTED_TYPE_MAX)}/${hour}/${String(shard).padStart(2, '0')}`,
  };
}

export function workflowIdsOf(routed: RoutedDelivery): string[] {
  return routed.targets.map((t) => resourceWorkflowId(t.resource));
}

/** Pure: decides where a delivery goes. A body that is not an envelope is kept as unrouted too. */
export function planDelivery(parsed: EnvelopeParseResult, body: unknown, meta: DeliveryMeta): RoutedDelivery {
  const batchId = meta.batchId === null ? null : boundedId(meta.batchId);
  if (!parsed.ok) {
    const dedupeId = deliveryIdentity('invalid-envelope', body);
    const delivery: ResourceDelivery = {
      dedupeId,
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
      targets: [{ resource: unroutedKey('invalid-envelope', meta.receivedAt, dedupeId), delivery }],
    };
  }
  const { delivery: d } = parsed;
  const eventType = boundedId(d.eventType);
  const delivery: ResourceDelivery = {
    dedupeId: deliveryIdentity(eventType, d.envelope.data),
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
          resource: unroutedKey(d.eventType, meta.receivedAt, delivery.dedupeId),
          delivery: { ...delivery, data: summariseUnrouted(d.envelope.data) },
        }
      : { resource: key, delivery },
  );
  return { eventType, parse: d.kind, targets };
}
