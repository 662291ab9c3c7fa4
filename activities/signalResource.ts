/**
 * Reaches a resource workflow with `signalWithStart`, so it exists whoever comes first: the
 * bridge with a delivery or a journey subscribing to it (docs/architecture.md, "One delivery, end
 * to end"). The workflow is named by its type, not imported: activities never import workflow code
 * (the workflows import the activities' types, and a cycle would bundle one into the other).
 *
 * A delivery goes with a request id of its own (deliveryRequestId.ts): when Temporal applied a
 * signal whose answer never came back (a deadline, a dropped connection), the bridge's resend
 * carries the same id and Temporal drops it, so the delivery reaches the history once.
 */
import type { Client } from '@temporalio/client';
import { encodeToPayloadsWithContext } from '@temporalio/common/lib/internal-non-workflow';
import { temporal } from '@temporalio/proto';
import { resourceWorkflowId, type ResourceKey } from '../provider';
import {
  deliverSignal,
  subscribeSignal,
  type ResourceDelivery,
  type ResourceWorkflowInput,
  type Subscription,
} from '../client/resourceMessages';
import { caseSearchAttributes } from '../client/searchAttributes';
import { deliveryRequestId } from './deliveryRequestId';

/** The workflow type registered by workflows/index.ts. */
export const RESOURCE_WORKFLOW_TYPE = 'resourceWorkflow';

export interface ResourceTarget {
  client: Client;
  taskQueue: string;
  /** Sent with each subscription: how long the resource stays once its outcome reached its subscribers. */
  quietAfterOutcomeMs?: number;
}

/**
 * `signalWithStart` through the service itself, since the client's own call draws a fresh request
 * id each time. Payloads go through the client's data converter (encrypted) as with the client's call.
 */
export async function deliverToResource(
  target: ResourceTarget,
  resource: ResourceKey,
  delivery: ResourceDelivery,
): Promise<void> {
  const { client, taskQueue } = target;
  const workflowId = resourceWorkflowId(resource);
  const converter = client.options.loadedDataConverter;
  const context = { type: 'workflow' as const, namespace: client.options.namespace, workflowId };
  const input: ResourceWorkflowInput = { resource };
  await client.workflowService.signalWithStartWorkflowExecution({
    namespace: client.options.namespace,
    identity: client.options.identity,
    requestId: deliveryRequestId(workflowId, delivery.dedupeId),
    workflowId,
    workflowType: { name: RESOURCE_WORKFLOW_TYPE },
    taskQueue: { kind: temporal.api.enums.v1.TaskQueueKind.TASK_QUEUE_KIND_NORMAL, name: taskQueue },
    input: { payloads: await encodeToPayloadsWithContext(converter, context, [input]) },
    signalName: deliverSignal.name,
    signalInput: { payloads: await encodeToPayloadsWithContext(converter, context, [delivery]) },
  });
}

/** The subscriber's case becomes the workflow's `CaseId` if this call starts it (the bridge knows none). */
export async function subscribeToResourceWorkflow(
  target: ResourceTarget,
  resource: ResourceKey,
  subscription: Subscription,
): Promise<void> {
  // The worker's setting, unless the subscription names its own.
  const withQuiet =
    target.quietAfterOutcomeMs === undefined
      ? subscription
      : { quietAfterOutcomeMs: target.quietAfterOutcomeMs, ...subscription };
  const input: ResourceWorkflowInput = { resource };
  await target.client.workflow.signalWithStart(RESOURCE_WORKFLOW_TYPE, {
    workflowId: resourceWorkflowId(resource),
    taskQueue: target.taskQueue,
    args: [input],
    signal: subscribeSignal,
    signalArgs: [withQuiet],
    typedSearchAttributes: subscription.caseId ? caseSearchAttributes(subscription.caseId) : undefined,
  });
}
