/**
 * The deliveries a resource workflow's history holds: its `deliver` signals, decoded with the
 * client's data converter (payloads are encrypted). Read from the history, so no worker need run
 * the workflow.
 */
import type { Client } from '@temporalio/client';
import { decodeFromPayloadsAtIndex } from '@temporalio/common/lib/internal-non-workflow';
import { deliverSignal, type ResourceDelivery } from '../../client/resourceMessages';

export async function heldDeliveries(client: Client, workflowId: string): Promise<ResourceDelivery[]> {
  const history = await client.workflow.getHandle(workflowId).fetchHistory();
  const payloads = (history.events ?? []).flatMap((e) =>
    e.workflowExecutionSignaledEventAttributes?.signalName === deliverSignal.name
      ? (e.workflowExecutionSignaledEventAttributes.input?.payloads ?? [])
      : [],
  );
  return Promise.all(
    payloads.map((payload) =>
      decodeFromPayloadsAtIndex<ResourceDelivery>(client.options.loadedDataConverter, 0, [payload]),
    ),
  );
}
