/**
 * What a step buys (client/purchaseKey.ts): the key of the need it works for. A waive or a cancel
 * never aborts a creating call in flight (activityOptions.ts, activities/providerClient.ts): the
 * provider may already be making the thing, and an aborted call would lose it. The call answers;
 * its ids go to the step's status; the cancellation takes effect at the step's next wait. A call
 * cancelled between two tries leaves an unknown outcome, which the next attempt finds through the
 * purchase ledger (activities/purchaseGuard.ts) by the same key.
 */
import { callKey } from '../client/purchaseKey';

export interface Purchasing {
  /**
   * `case/<caseId>/<step>/<need>`, set by the journey. A step run on its own (a test, a script)
   * has none: its calls are keyed by the activity (activities/activityCall.ts).
   */
  purchase?: string;
  /** An operator asked for this need to buy anew (`retryStep --fresh`): the ledger records it. */
  fresh?: boolean;
}

/**
 * The idempotency key of one creating call of this step's need, as the activity's input takes it;
 * the activity records the call in the purchase ledger under it (activities/purchaseGuard.ts).
 */
export function keyed(input: Purchasing, call: string): { idempotencyKey?: string; fresh?: boolean } {
  if (!input.purchase) return {};
  return { idempotencyKey: callKey(input.purchase, call), ...(input.fresh ? { fresh: true } : {}) };
}
