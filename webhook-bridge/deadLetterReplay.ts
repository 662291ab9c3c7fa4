/**
 * Operator actions on the dead-letter store, for the CLI (`npm run bridge:dead-letters`): list the
 * letters, and replay one once its cause is fixed, which signals it like any delivery and removes
 * it when Temporal takes it.
 */
import type { DeadLetterStore, DeadLetterSummary } from './deadLetters';
import { routeIncoming } from './spooledRouting';
import type { RoutedDelivery } from './routeDelivery';
import { classifyRefusal } from './temporalRefusal';

export type ReplayResult =
  | { outcome: 'replayed'; workflowIds: string[] }
  | { outcome: 'not-found' }
  | { outcome: 'refused'; grpcCode: number | null; reason: string };

export function listDeadLetters(store: DeadLetterStore): DeadLetterSummary[] {
  return store.list();
}

export async function replayDeadLetter(
  store: DeadLetterStore,
  id: string,
  signal: (routed: RoutedDelivery) => Promise<void>,
): Promise<ReplayResult> {
  const letter = store.read(id);
  if (!letter) return { outcome: 'not-found' };
  const raw = Buffer.from(letter.body, 'base64');
  const routed = routeIncoming({
    body: JSON.parse(raw.toString('utf8')),
    batchId: letter.batchId,
    receivedAt: letter.receivedAt,
  });
  try {
    await signal(routed);
  } catch (error) {
    const refusal = classifyRefusal(error);
    return { outcome: 'refused', grpcCode: refusal.grpcCode, reason: refusal.reason };
  }
  store.remove(id);
  return { outcome: 'replayed', workflowIds: letter.workflowIds };
}
