/**
 * Idempotency keys from business identity (docs/architecture.md, "Journeys", once per need): a creating call's key
 * names the case, the step, the need and the call, never a run or an attempt. A need is one thing
 * the journey buys for a step (a credit report, an IDV request, a bank connection): a reset, a task
 * retry, a worker restart, a new attempt or `journey retry` of the same need sends the same key, so
 * a purchase whose answer was lost is answered again instead of made twice. The journey moves to a
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
