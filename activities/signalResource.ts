/**
 * Reaches a resource workflow with `signalWithStart`, so it exists whoever comes first: the
 * bridge with a delivery or a journey subscribing to it (DESIGN.md §3).
 */
import type { Client } from '@temporalio/client';
import type { SignalDefinition } from '@temporalio/common';
import { resourceWorkflowId, type ResourceKey } from '../provider';
import { deliverSignal, subscribeSignal, type ResourceDelivery, type Subscription } from '../workflows/messages';
import { resourceWorkflow } from '../workflows/resourceWorkflow';

export interface ResourceTarget {
  client: Client;
  taskQueue: string;
}

async function signalResource<Arg>(target: ResourceTarget, resource: ResourceKey, signal: SignalDefinition<[Arg]>, arg: Arg): Promise<void> {
  await target.client.workflow.signalWithStart(resourceWorkflow, {
    workflowId: resourceWorkflowId(resource),
    taskQueue: target.taskQueue,
    args: [{ resource }],
    signal,
    signalArgs: [arg],
  });
}

export function deliverToResource(target: ResourceTarget, resource: ResourceKey, delivery: ResourceDelivery): Promise<void> {
  return signalResource(target, resource, deliverSignal, delivery);
}

export function subscribeToResourceWorkflow(target: ResourceTarget, resource: ResourceKey, subscription: Subscription): Promise<void> {
  return signalResource(target, resource, subscribeSignal, subscription);
}
