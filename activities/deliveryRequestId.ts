/**
 * The request id a delivery goes to its resource workflow with: the same for every send of one
 * delivery (its dedupe id) to one workflow, and different for any other. Temporal keeps the
 * request ids of the signals a run has taken and drops a repeat, so a resend after an answer that
 * was lost adds nothing to the history. Shaped as a UUID, as the request ids Temporal's clients send.
 */
import { hash } from 'node:crypto';

export function deliveryRequestId(workflowId: string, dedupeId: string): string {
  const hex = hash('sha256', `${workflowId}\n${dedupeId}`, 'hex');
  return [hex.slice(0, 8), hex.slice(8, 12), hex.slice(12, 16), hex.slice(16, 20), hex.slice(20, 32)].join('-');
}
