/** Routing of a delivery as received or as read back from the spool or the dead-letter store. */
import { parseDelivery } from '../provider';
import { planDelivery, type RoutedDelivery } from './routeDelivery';

export function routeIncoming(d: { body: unknown; batchId: string | null; receivedAt: string }): RoutedDelivery {
  return planDelivery(parseDelivery(d.body), d.body, { batchId: d.batchId, receivedAt: d.receivedAt });
}

/** The body is stored as Base64 of the exact bytes received. */
export function routeSpooled(entry: { body: string; batchId: string | null; receivedAt: string }): RoutedDelivery {
  const raw = Buffer.from(entry.body, 'base64');
  return routeIncoming({
    body: JSON.parse(raw.toString('utf8')),
    batchId: entry.batchId,
    receivedAt: entry.receivedAt,
  });
}
