/** How many `deliver` signals a resource workflow's history holds (0 when it does not exist). */
import type { Client } from '@temporalio/client';
import { deliverSignal } from '../../client/resourceMessages';

export async function deliverSignals(client: Client, workflowId: string): Promise<number> {
  const history = await client.workflow
    .getHandle(workflowId)
    .fetchHistory()
    .catch(() => undefined);
  return (history?.events ?? []).filter(
    (e) => e.workflowExecutionSignaledEventAttributes?.signalName === deliverSignal.name,
  ).length;
}
