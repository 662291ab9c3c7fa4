/**
 * The workflow an unrouted delivery went to (`resource/unrouted/<type>/<hour>/<shard>`), as the
 * bridge routes it: the hour is the bridge's receipt, known to a test only between its send and
 * the answer, so each hour in that window is a candidate.
 */
import { parseDelivery } from '../../provider';
import { planDelivery, workflowIdsOf } from '../../webhook-bridge/routeDelivery';

export function unroutedWorkflowIds(raw: string, batchId: string | null, sentFrom: Date, answeredAt: Date): string[] {
  const body = JSON.parse(raw) as unknown;
  const at = (d: Date) =>
    workflowIdsOf(planDelivery(parseDelivery(body), body, { batchId, receivedAt: d.toISOString() }));
  return [...new Set([...at(sentFrom), ...at(answeredAt)])].filter((id) => id.startsWith('resource/unrouted/'));
}
