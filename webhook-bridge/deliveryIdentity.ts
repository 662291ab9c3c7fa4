/**
 * The dedupe identity of a delivery: `X-Batch-Correlation-Id`, the event type and a hash of
 * `data`. The same occurrence received twice, or through two webhooks, has one identity; the parent
 * and child deliveries of one occurrence differ by event type and stay distinct.
 */
import { hash } from 'node:crypto';

export function deliveryIdentity(batchId: string | null, eventType: string, data: unknown): string {
  // One-shot: no Hash object per delivery (this runs on every delivery the bridge takes).
  const dataHash = hash('sha256', JSON.stringify(data), 'base64url');
  return `${batchId ?? 'no-batch'}|${eventType}|${dataHash}`;
}
