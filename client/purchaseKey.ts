/**
 * Idempotency keys from business identity (docs/architecture.md, "Journeys", once per need): a creating call's key
 * names the case, the step, the need and the call, never a run or an attempt. A need is one thing
 * the journey buys for a step (a credit report, an IDV request, a bank connection): a reset, a task
 * retry, a worker restart, a new attempt or `journey retry` of the same need uses the same key, so
 * the purchase ledger (activities/purchaseGuard.ts) answers what that call bought, or looks for it
 * when its answer was lost, instead of buying twice. The journey moves to a
 * new need only when the previous one is known to be finished and unusable, or an operator asks
 * for a fresh purchase.
 */

/** `case/<caseId>/<step>/<need>`: the key every creating call of that need extends. */
export function purchaseKey(caseId: string, stepKey: string, need: number): string {
  return `case/${caseId}/${stepKey}/${need}`;
}

/** One creating call of a need: `<purchase key>/<call>` (`request`, `resolve`, `document-2`, …). */
export function callKey(purchase: string, call: string): string {
  return `${purchase}/${call}`;
}

/**
 * The failure type of a creating call whose outcome nobody could find (activities/purchaseGuard.ts):
 * the step waits for an operator (`needs_attention`), who retries it to look again or with `fresh`.
 */
export const PURCHASE_OUTCOME_UNKNOWN = 'PurchaseOutcomeUnknown';
/**
 * The retryable failure of a search still under way. When the call's budget ends on one, the
 * outcome is as unknown as after the search's own bound: the step says so in the same words.
 */
export const PURCHASE_SEARCH_PENDING = 'PurchaseSearchPending';

/** What both failures carry in their details: the call, since when its outcome is unknown, what a search saw. */
export interface UnknownPurchase {
  callKey: string;
  since: string;
  evidence: string;
}

/** The words an operator reads on a step whose purchase outcome is unknown. */
export function purchaseOutcomeUnknownMessage({ callKey, since, evidence }: UnknownPurchase): string {
  return (
    `purchase outcome unknown since ${since}: the provider may have created it (${callKey}); ${evidence}. ` +
    'Retry the step to look again, or retry it with fresh to buy anew'
  );
}
