/**
 * Reaches a resource workflow with `signalWithStart`, so it exists whoever comes first: the
 * bridge with a delivery or a journey subscribing to it (docs/architecture.md, "One delivery, end
 * to end"). The workflow is named by its type, not imported: activities never import workflow code
 * (the workflows import the activities' types, and a cycle would bundle one into the other).
 */
import type { Client } from '@temporalio/client';
import type { SignalDefinition } from '@temporalio/common';
import { resourceWorkflowId, type ResourceKey } from '../provider';
import {
  deliverSignal,
  subscribeSignal,
  type ResourceDelivery,
  type ResourceWorkflowInput,
  type Subscription,
} from '../client/resourceMessages';
import { caseSearchAttributes } from '../client/searchAttributes';

/** The workflow type registered by workflows/index.ts. */
export const RESOURCE_WORKFLOW_TYPE = 'resourceWorkflow';

export interface ResourceTarget {
  client: Client;
  taskQueue: string;
  /** Sent with each subscription: how long the resource stays once its outcome reached its subscribers. */
  quietAfterOutcomeMs?: number;
}

/** `caseId`, when known, becomes the workflow's `CaseId` if this call starts it (the bridge knows none). */
async function signalResource<Arg>(
  target: ResourceTarget,
  resource: ResourceKey,
  signal: SignalDefinition<[Arg]>,
  arg: Arg,
  caseId?: string,
): Promise<void> {
  const input: ResourceWorkflowInput = { resource };
  await target.client.workflow.signalWithStart(RESOURCE_WORKFLOW_TYPE, {
    workflowId: resourceWorkflowId(resource),
    taskQueue: target.taskQueue,
    args: [input],
    signal,
    signalArgs: [arg],
    ...(caseId ? { typedSearchAttributes: caseSearchAttributes(caseId) } : {}),
  });
}

export function deliverToResource(
  target: ResourceTarget,
  resource: ResourceKey,
  delivery: ResourceDelivery,
): Promise<void> {
  return signalResource(target, resource, deliverSignal, delivery);
}

export function subscribeToResourceWorkflow(
  target: ResourceTarget,
  resource: ResourceKey,
  subscription: Subscription,
): Promise<void> {
  // The worker's setting, unless the subscription names its own.
  const withQuiet =
    target.quietAfterOutcomeMs === undefined
      ? subscription
      : { quietAfterOutcomeMs: target.quietAfterOutcomeMs, ...subscription };
  return signalResource(target, resource, subscribeSignal, withQuiet, subscription.caseId);
}
