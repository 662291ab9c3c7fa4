/** Signals and queries shared by resource workflows, step workflows, the bridge and the CLI. */
import { defineQuery, defineSignal } from '@temporalio/workflow';
import type { Duration } from '@temporalio/common';
import type { ResourceKey } from '../provider';

/** `resource/<kind>/<id>`: pure, so workflows signal a resource by it as the activities and the bridge reach it. */
export { resourceWorkflowId } from '../provider/resourceWorkflowId';

/** One verified delivery, as the bridge hands it to a resource workflow. */
export interface ResourceDelivery {
  /** Event type + hash of `data` (deliveryIdentity.ts): the same occurrence received twice has one identity. */
  dedupeId: string;
  eventType: string;
  batchId: string | null;
  webhookId: string;
  datetimeSent: string;
  /** When the bridge received it (ISO 8601). */
  receivedAt: string;
  /**
   * `known`, `unknown-event-type` or `invalid-data` (see provider/webhookEnvelope), or `polled`:
   * not a webhook but the provider's record read by reconciliation, in `data`.
   */
  parse: 'known' | 'unknown-event-type' | 'invalid-data' | 'polled';
  problems?: string[];
  data: Record<string, unknown>;
}

export interface Subscription {
  /** The workflow that receives `resourceEventSignal` for each event of the resource. */
  workflowId: string;
  /** The subscriber's case: the resource workflow carries it as its `CaseId` search attribute. */
  caseId?: string;
  /** Ask the provider when no delivery arrived for this long (milliseconds); no polling when unset. */
  reconcileAfterMs?: number;
  /** The longest wait between two polls that find nothing (milliseconds; deadlines.ts by default). */
  reconcileBackoffCapMs?: number;
  /**
   * How long the resource stays once its outcome reached its subscribers (milliseconds; the
   * shortest any subscriber asked); set by the worker (RESOURCE_QUIET_AFTER_OUTCOME), else the
   * resource's input or the default in deadlines.ts.
   */
  quietAfterOutcomeMs?: number;
}

export interface Unsubscription {
  /** The workflow that subscribed. */
  workflowId: string;
}

/** What reconciliation found at the provider: settled with the record, or still pending. */
export type PollResult = { settled: false } | { settled: true; eventType: string; data: Record<string, unknown> };

export interface ResourceEvent {
  resource: ResourceKey;
  delivery: ResourceDelivery;
}

export interface ResourceState {
  resource: ResourceKey;
  events: ResourceDelivery[];
  /**
   * Distinct occurrences among the events: the parent and child deliveries of one occurrence
   * share a batch id and count once (spec §6.1.3, §6.1.4).
   */
  occurrences: number;
  subscribers: string[];
  duplicatesIgnored: number;
  /**
   * Unrouted resources keep only their latest events (the log is shared by every case and would
   * otherwise grow without bound through continue-as-new); the older ones are counted here.
   */
  eventsDropped?: number;
}

export const deliverSignal = defineSignal<[ResourceDelivery]>('deliver');
export const subscribeSignal = defineSignal<[Subscription]>('subscribe');
/**
 * A subscriber that needs nothing more from the resource (its step ended): the resource stops
 * forwarding to it, and stops polling once no subscriber is left.
 */
export const unsubscribeSignal = defineSignal<[Unsubscription]>('unsubscribe');
export const resourceEventSignal = defineSignal<[ResourceEvent]>('resourceEvent');
export const resourceStateQuery = defineQuery<ResourceState>('resourceState');

export interface ResourceWorkflowInput {
  resource: ResourceKey;
  retention?: Duration;
  /** Quiet time before the workflow ends once its outcome reached its subscribers (deadlines.ts). */
  quietAfterOutcome?: Duration;
  /** Continue as new once the history has this many events (the server's suggestion applies too). */
  continueAsNewAtHistoryLength?: number;
  /** State carried across continue-as-new. */
  carried?: Omit<ResourceState, 'resource'> & {
    reconcileAfterMs?: number;
    reconcileBackoffCapMs?: number;
    /** Polls that found nothing since the last delivery or subscription: the next waits 2^n × reconcileAfter. */
    pollsSinceActivity?: number;
    settled?: boolean;
    outcomeTold?: boolean;
    quietAfterOutcomeMs?: number;
    /** The last delivery or subscription (epoch ms): a continue-as-new does not restart the quiet period. */
    lastActivityAt?: number;
    /** The last poll (epoch ms): the next one is due from it. */
    lastPollAt?: number;
  };
}
