/**
 * The subscriber's side of resource workflows: subscribe (through an activity: a workflow cannot
 * signalWithStart; lean steps subscribe in the activity that creates the resource), then receive
 * each event once, whatever the order or repetition, and unsubscribe when the need has ended, so
 * that the resource stops polling for it (docs/architecture.md).
 */
import { msToNumber } from '@temporalio/common/lib/time';
import type { Duration } from '@temporalio/common';
import { CancellationScope, getExternalWorkflowHandle, log, setHandler, workflowInfo } from '@temporalio/workflow';
import { caseIdSearchAttribute } from '../client/searchAttributes';
import type { ResourceKey } from '../provider';
import {
  resourceEventSignal,
  resourceWorkflowId,
  unsubscribeSignal,
  type ResourceDelivery,
  type Subscription,
} from '../client/resourceMessages';
import { resourceSubscriptions } from './providerActivities';

export interface ResourceInbox {
  /** Events received so far for `resource`, each once, in arrival order. */
  of(resource: ResourceKey): ResourceDelivery[];
  subscribe(resource: ResourceKey, reconcileAfter?: Duration, reconcileBackoffCap?: Duration): Promise<void>;
  /**
   * This workflow as a subscriber, for an activity that creates a resource and subscribes in one go:
   * polled for `reconcileAfter` after the last delivery, then backing off to `reconcileBackoffCap`.
   */
  subscription(reconcileAfter?: Duration, reconcileBackoffCap?: Duration): Subscription;
  /**
   * Remembers a resource that an activity subscribed this workflow to (with `subscription()`), so
   * that `unsubscribeAll` reaches it. Resources passed to `subscribe`, and those an event came
   * from, are remembered already.
   */
  track(resource: ResourceKey): void;
  /** The resources this workflow is subscribed to, as far as it knows, in the order first seen. */
  subscribed(): ResourceKey[];
  /**
   * Tells `resource` that this workflow needs nothing more from it (it stops forwarding to it,
   * and polling when no subscriber is left). Best effort: a resource that has ended is ignored.
   * Not cancellable: it runs to its end in a cancelled scope too.
   */
  unsubscribe(resource: ResourceKey): Promise<void>;
  /**
   * `unsubscribe` from every resource remembered, in the order first seen; runs to its end in a
   * cancelled scope too (a step being cancelled calls it on its way out).
   */
  unsubscribeAll(): Promise<void>;
}

const keyOf = (r: ResourceKey) => `${r.kind}/${r.id}`;

/**
 * A step attempt's inboxes, so that the attempt's end leaves every resource they subscribed to
 * (providerFailure.ts). Held by the attempt, not by this module: the worker shares the workflows'
 * modules between every workflow it runs (worker/workflowBundle.ts).
 */
export class ResourceInboxes {
  private readonly inboxes: ResourceInbox[] = [];

  create(onEvent?: (resource: ResourceKey, delivery: ResourceDelivery) => void): ResourceInbox {
    const inbox = createResourceInbox(onEvent);
    this.inboxes.push(inbox);
    return inbox;
  }

  /** Unsubscribes from every resource of every inbox: the need has ended, so should their polling. */
  async leaveAll(): Promise<void> {
    for (const inbox of this.inboxes) await inbox.unsubscribeAll();
  }
}

export function createResourceInbox(
  onEvent: (resource: ResourceKey, delivery: ResourceDelivery) => void = () => {},
): ResourceInbox {
  const byResource = new Map<string, ResourceDelivery[]>();
  const seen = new Set<string>();
  // Insertion-ordered, so unsubscribeAll signals in one order on every replay.
  const subscribedTo = new Map<string, ResourceKey>();
  // Unsubscribed explicitly: an event still on its way from it does not subscribe it again.
  const left = new Set<string>();
  const remember = (resource: ResourceKey) => {
    left.delete(keyOf(resource));
    if (!subscribedTo.has(keyOf(resource))) subscribedTo.set(keyOf(resource), { kind: resource.kind, id: resource.id });
  };
  setHandler(resourceEventSignal, ({ resource, delivery }) => {
    if (!left.has(keyOf(resource)) && !subscribedTo.has(keyOf(resource)))
      subscribedTo.set(keyOf(resource), { kind: resource.kind, id: resource.id });
    const id = `${keyOf(resource)}|${delivery.dedupeId}`;
    if (seen.has(id)) return;
    seen.add(id);
    const list = byResource.get(keyOf(resource)) ?? [];
    list.push(delivery);
    byResource.set(keyOf(resource), list);
    onEvent(resource, delivery);
  });
  const caseId = workflowInfo().typedSearchAttributes.get(caseIdSearchAttribute);
  const subscription = (reconcileAfter?: Duration, reconcileBackoffCap?: Duration): Subscription => ({
    workflowId: workflowInfo().workflowId,
    caseId,
    reconcileAfterMs: reconcileAfter === undefined ? undefined : msToNumber(reconcileAfter),
    reconcileBackoffCapMs: reconcileBackoffCap === undefined ? undefined : msToNumber(reconcileBackoffCap),
  });
  // Not cancellable: a step that is being cancelled still lets its resources go.
  const unsubscribe = (resource: ResourceKey): Promise<void> =>
    CancellationScope.nonCancellable(async () => {
      subscribedTo.delete(keyOf(resource));
      left.add(keyOf(resource));
      try {
        await getExternalWorkflowHandle(resourceWorkflowId(resource)).signal(unsubscribeSignal, {
          workflowId: workflowInfo().workflowId,
        });
      } catch (error) {
        // The resource workflow has ended (its retention ran out): it polls for nobody.
        log.info('resource already closed; nothing to unsubscribe from', { resource, error: String(error) });
      }
    });
  const inbox: ResourceInbox = {
    of: (resource) => byResource.get(keyOf(resource)) ?? [],
    async subscribe(resource, reconcileAfter, reconcileBackoffCap) {
      remember(resource);
      await resourceSubscriptions.subscribeToResource({
        resource,
        subscription: subscription(reconcileAfter, reconcileBackoffCap),
      });
    },
    subscription,
    track: remember,
    subscribed: () => [...subscribedTo.values()],
    unsubscribe,
    // Each unsubscribe is out of a cancellation's reach already.
    async unsubscribeAll() {
      await Promise.all([...subscribedTo.values()].map(unsubscribe));
    },
  };
  return inbox;
}
