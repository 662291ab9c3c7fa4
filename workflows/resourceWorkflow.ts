/**
 * One workflow per provider resource, `resource/<kind>/<id>` (DESIGN.md §3): a mailbox that the
 * bridge and the journeys both reach with signalWithStart, so arrival order never matters. It
 * dedupes deliveries, keeps the event log (a query), and forwards every event to every subscriber,
 * replaying past events to late subscribers. It ends after a retention period of quiet.
 */
import {
  condition,
  continueAsNew,
  getExternalWorkflowHandle,
  log,
  setHandler,
  workflowInfo,
} from '@temporalio/workflow';
import type { Duration } from '@temporalio/common';
import type { ResourceKey } from '../provider';
import { defaultDeadlines } from './deadlines';
import {
  deliverSignal,
  resourceEventSignal,
  resourceStateQuery,
  subscribeSignal,
  type ResourceDelivery,
  type ResourceState,
} from './messages';

export interface ResourceWorkflowInput {
  resource: ResourceKey;
  retention?: Duration;
  /** State carried across continue-as-new. */
  carried?: Omit<ResourceState, 'resource'>;
}

interface Outgoing {
  to: string;
  delivery: ResourceDelivery;
}

export async function resourceWorkflow(input: ResourceWorkflowInput): Promise<ResourceState> {
  const state: ResourceState = {
    resource: input.resource,
    events: input.carried?.events ?? [],
    occurrences: input.carried?.occurrences ?? 0,
    subscribers: input.carried?.subscribers ?? [],
    duplicatesIgnored: input.carried?.duplicatesIgnored ?? 0,
  };
  const seen = new Set(state.events.map((e) => e.dedupeId));
  const outbox: Outgoing[] = [];

  setHandler(deliverSignal, (delivery) => {
    if (seen.has(delivery.dedupeId)) {
      state.duplicatesIgnored++;
      return;
    }
    seen.add(delivery.dedupeId);
    const sameOccurrence = delivery.batchId !== null && state.events.some((e) => e.batchId === delivery.batchId);
    if (!sameOccurrence) state.occurrences++;
    state.events.push(delivery);
    for (const to of state.subscribers) outbox.push({ to, delivery });
  });

  setHandler(subscribeSignal, ({ workflowId }) => {
    if (!state.subscribers.includes(workflowId)) state.subscribers.push(workflowId);
    // Replay the whole log: a subscriber that came late, or re-subscribes, misses nothing.
    for (const delivery of state.events) outbox.push({ to: workflowId, delivery });
  });

  setHandler(resourceStateQuery, () => state);

  const retention = input.retention ?? defaultDeadlines.resourceRetention;
  for (;;) {
    const busy = await condition(() => outbox.length > 0, retention);
    if (!busy) return state;
    await flush(outbox, state);
    if (workflowInfo().continueAsNewSuggested) {
      const { resource, ...carried } = state;
      await continueAsNew<typeof resourceWorkflow>({ ...input, resource, carried });
    }
  }
}

async function flush(outbox: Outgoing[], state: ResourceState): Promise<void> {
  while (outbox.length > 0) {
    const { to, delivery } = outbox.shift() as Outgoing;
    if (!state.subscribers.includes(to)) continue;
    try {
      await getExternalWorkflowHandle(to).signal(resourceEventSignal, { resource: state.resource, delivery });
    } catch (error) {
      // The subscriber has closed: it needs nothing more from us.
      log.info('dropping closed subscriber', { subscriber: to, error: String(error) });
      state.subscribers = state.subscribers.filter((s) => s !== to);
    }
  }
}
