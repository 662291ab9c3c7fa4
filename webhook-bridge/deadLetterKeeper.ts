/**
 * Keeps a delivery Temporal refused for good in the dead-letter store, counted and logged (ids and
 * the refusal only, never the payload). Shared by the recorder (refused at once) and the spool
 * drain (refused later).
 */
import type { Logger } from 'pino';
import type { DeadLetterStore } from './deadLetters';
import { eventTypeLabel } from './eventTypeLabel';
import type { BridgeMetrics } from './metrics';
import { workflowIdsOf, type RoutedDelivery } from './routeDelivery';
import type { Refusal } from './temporalRefusal';

export interface RefusedDelivery {
  receivedAt: string;
  batchId: string | null;
  /** The exact body, Base64. */
  body: string;
}

/** Resolves false when even the dead-letter store could not be written (the caller keeps the delivery). */
export type KeepDeadLetter = (delivery: RefusedDelivery, routed: RoutedDelivery, refusal: Refusal) => boolean;

export function deadLetterKeeper(store: DeadLetterStore, metrics: BridgeMetrics, logger: Logger): KeepDeadLetter {
  return (delivery, routed, refusal) => {
    try {
      const letter = store.put(
        {
          receivedAt: delivery.receivedAt,
          batchId: delivery.batchId,
          body: Buffer.from(delivery.body, 'base64'),
          workflowIds: workflowIdsOf(routed),
        },
        refusal,
      );
      metrics.deadLettered.inc({ event_type: eventTypeLabel(routed.eventType) });
      logger.error(
        { deadLetter: letter.id, eventType: routed.eventType, grpcCode: refusal.grpcCode, reason: refusal.reason },
        'Temporal refused the delivery for good; kept in the dead-letter store',
      );
      return true;
    } catch (error) {
      logger.error(
        { eventType: routed.eventType, err: error instanceof Error ? error.message : String(error) },
        'could not write the dead letter; the delivery stays in the spool',
      );
      return false;
    }
  };
}
