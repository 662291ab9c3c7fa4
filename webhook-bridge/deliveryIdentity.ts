/**
 * The dedupe identity of a delivery, taken only from what the provider signs: the event type and
 * a hash of `data`. `X-Batch-Correlation-Id` is not signed, so it takes no part: a captured body
 * sent again with any headers has the identity it had the first time, and the resource workflow
 * records it once. The fields that differ between webhooks (webhook_id, webhook_name,
 * external_ref, the send time) take no part either, so the same occurrence received twice, or
 * through two webhooks (redundant delivery), has one identity; the parent and child deliveries of
 * one occurrence differ by event type and stay distinct.
 *
 * A body that is not an envelope has no event type or data of its own: the whole body is hashed.
 */
import { hash } from 'node:crypto';

export function deliveryIdentity(eventType: string, data: unknown): string {
  // One-shot: no Hash object per delivery (this runs on every delivery the bridge takes).
  const dataHash = hash('sha256', JSON.stringify(data), 'base64url');
  return `${eventType}|${dataHash}`;
}
