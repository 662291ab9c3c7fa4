/**
 * Reaches a resource workflow with `signalWithStart`, so it exists whoever comes first: the
 * bridge with a delivery or a journey subscribing to it (DESIGN.md §3).
 */
import type { Client } from '@temporalio/client';
import { resourceWorkflowId, type ResourceKey } from '../provider';
import { deliverSignal, subscribeSignal, type ResourceDelivery, type Subscription } from '../workflows/messages';
import { resourceWorkflow } from '../workflows/resourceWorkflow';

export interface ResourceTarget {
  client: Client;
  taskQueue: string;
}

export async function deliverToResource(target: ResourceTarget, resource: ResourceKey, delivery: ResourceDelivery): Promise<void> {
  await target.client.workflow.signalWithStart(resourceWorkflow, {
    workflowId: resourceWorkflowId(resource),
    taskQueue: target.taskQueue,
    args: [{ resource }],
    signal: deliverSignal,
    signalArgs: [delivery],
  });
}

export async function subscribeToResourceWorkflow(target: ResourceTarget, resource: ResourceKey, subscription: Subscription): Promise<void> {
  await target.client.workflow.signalWithStart(resourceWorkflow, {
    workflowId: resourceWorkflowId(resource),
    taskQueue: target.taskQueue,
    args: [{ resource }],
    signal: subscribeSignal,
    signalArgs: [subscription],
  });
}
