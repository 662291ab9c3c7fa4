/** How many signals of a name a workflow's history holds (0 when the workflow does not exist). */
import type { Client } from '@temporalio/client';
import { deliverSignal } from '../../client/resourceMessages';

export async function signalsReceived(client: Client, workflowId: string, name: string): Promise<number> {
  const history = await client.workflow
    .getHandle(workflowId)
    .fetchHistory()
    .catch(() => undefined);
  return (history?.events ?? []).filter((e) => e.workflowExecutionSignaledEventAttributes?.signalName === name).length;
}

/** The deliveries a resource workflow's history holds. */
export const deliverSignals = (client: Client, workflowId: string) =>
  signalsReceived(client, workflowId, deliverSignal.name);
