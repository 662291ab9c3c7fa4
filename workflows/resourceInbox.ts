/**
 * The subscriber's side of resource workflows: subscribe (through an activity: a workflow cannot
 * signalWithStart; lean steps subscribe in the activity that creates the resource), then receive
 * each event once, whatever the order or repetition.
 */
import { msToNumber } from '@temporalio/common/lib/time';
import type { Duration } from '@temporalio/common';
import { setHandler, workflowInfo } from '@temporalio/workflow';
import { caseIdSearchAttribute } from '../client/searchAttributes';
import type { ResourceKey } from '../provider';
import { resourceEventSignal, type ResourceDelivery, type Subscription } from '../client/resourceMessages';
import { resourceSubscriptions } from './providerActivities';

export interface ResourceInbox {
  /** Events received so far for `resource`, each once, in arrival order. */
  of(resource: ResourceKey): ResourceDelivery[];
  subscribe(resource: ResourceKey, reconcileAfter?: Duration): Promise<void>;
  /** This workflow as a subscriber, for an activity that creates a resource and subscribes in one go. */
  subscription(reconcileAfter?: Duration): Subscription;
}

const keyOf = (r: ResourceKey) => `${r.kind}/${r.id}`;

export function createResourceInbox(onEvent: (resource: ResourceKey, delivery: ResourceDelivery) => void = () => {}): ResourceInbox {
  const byResource = new Map<string, ResourceDelivery[]>();
  const seen = new Set<string>();
  setHandler(resourceEventSignal, ({ resource, delivery }) => {
    const id = `${keyOf(resource)}|${delivery.dedupeId}`;
    if (seen.has(id)) return;
    seen.add(id);
    const list = byResource.get(keyOf(resource)) ?? [];
    list.push(delivery);
    byResource.set(keyOf(resource), list);
    onEvent(resource, delivery);
  });
  const caseId = workflowInfo().typedSearchAttributes.get(caseIdSearchAttribute);
  const subscription = (reconcileAfter?: Duration): Subscription => ({
    workflowId: workflowInfo().workflowId,
    ...(caseId ? { caseId } : {}),
    ...(reconcileAfter !== undefined ? { reconcileAfterMs: msToNumber(reconcileAfter) } : {}),
  });
  return {
    of: (resource) => byResource.get(keyOf(resource)) ?? [],
    async subscribe(resource, reconcileAfter) {
      await resourceSubscriptions.subscribeToResource({ resource, subscription: subscription(reconcileAfter) });
    },
    subscription,
  };
}
