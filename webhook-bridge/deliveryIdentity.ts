/**
 * The dedupe identity of a delivery: `X-Batch-Correlation-Id`, the event type and a hash of
 * `data`. The same occurrence received twice, or through two webhooks, has one identity; the parent
 * and child deliveries of one occurrence differ by event type and stay distinct.
 */
import { createHash } from 'node:crypto';

export function deliveryIdentity(batchId: string | null, eventType: string, data: unknown): string {
  const dataHash = createHash('sha256').update(JSON.stringify(data)).digest('base64url');
  return `${batchId ?? 'no-batch'}|${eventType}|${dataHash}`;
}
