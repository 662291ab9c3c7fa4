/**
 * Bought once per need, whatever the provider does with idempotency keys (docs/architecture.md,
 * "Journeys", the purchase ledger). A creating call keyed by a need (client/purchaseKey.ts) goes
 * through the case file's purchase ledger:
 *
 * - a row that holds the provider's id answers the call without calling: the repeat of a call
 *   whose answer came (an activity retried after the subscription failed, an attempt, a reset,
 *   `journey retry`);
 * - a row with an intent and no id is a call whose outcome is unknown (its answer lost, a timeout,
 *   a worker killed mid-call). It is never simply sent again: `find` looks for what the provider
 *   made by the means the spec gives. Found, it is recorded and answered; shown never made (a list
 *   that holds nothing new), the call is sent; neither, the search is tried again every few
 *   seconds until `searchBoundMs` after the intent (or the activity's budget, if that ends first),
 *   and then the call fails for good, "purchase outcome unknown since …", and its step waits for
 *   an operator;
 * - no row: the intent is recorded, the call sent, the id recorded. A refusal (creationOutcome.ts)
 *   made nothing: its intent is forgotten, so the next try sends the call again.
 *
 * Calls with no need's key (a step run alone) are sent as they are.
 */
import { ApplicationFailure } from '@temporalio/common';
import type { CaseFileStore } from '../case-file/store';
import { parseCallKey, type Purchase, type PurchaseKind } from '../case-file/purchaseLedger';
import { currentActivity, whileHeartbeating } from './activityCall';
import { creationOutcomeUnknown } from './creationOutcome';
import {
  PURCHASE_OUTCOME_UNKNOWN,
  PURCHASE_SEARCH_PENDING,
  purchaseOutcomeUnknownMessage,
} from '../client/purchaseKey';

export { PURCHASE_OUTCOME_UNKNOWN, PURCHASE_SEARCH_PENDING };

/** How long a search for a lost answer goes on before an operator is asked (two minutes). */
export const PURCHASE_SEARCH_BOUND_MS = 120_000;

/**
 * What a search found: the provider's answer, proof that nothing was made, or neither (with what
 * was seen; `final`: no later search can see more, so an operator is asked at once).
 */
export type Search<Answer> = { found: Answer } | { nothingMade: string } | { notFound: string; final?: boolean };

export interface GuardedCall<Answer> {
  /** The call's idempotency key; only a need's call key (case/…/<need>/<call>) is ledgered. */
  callKey: string | undefined;
  kind: PurchaseKind;
  /** What a search looks by (the person, the file name, the report). */
  subject: string | null;
  /** An operator asked for this need to buy anew. */
  fresh?: boolean;
  providerIdOf: (answer: Answer) => string;
  create: () => Promise<Answer>;
  /** Looks for what a call whose outcome is unknown made. */
  find: (intent: Purchase) => Promise<Search<Answer>>;
}

/**
 * How long a creating call an earlier attempt sent may still be answering (its attempt timed out
 * on a busy worker while the call went on): twice the request timeout, as a token request may come
 * first, and a margin for the case file's write after it. No search concludes before then.
 */
export const callInFlightMs = (requestTimeoutMs = 10_000) => 2 * requestTimeoutMs + 5_000;

export interface PurchaseGuardOptions {
  /** How long a search for a lost answer goes on before an operator is asked. */
  searchBoundMs?: number;
  /** How long an earlier attempt's creating call may still be answering (callInFlightMs). */
  inFlightMs?: number;
}

export function createPurchaseGuard(
  caseFile: CaseFileStore,
  { searchBoundMs = PURCHASE_SEARCH_BOUND_MS, inFlightMs = callInFlightMs() }: PurchaseGuardOptions = {},
) {
  // The call's purchase as recorded: a second answer for one call is recorded as an extra, and the
  // step goes on with the first (case-file/purchaseLedger.ts).
  const bought = async <Answer>(call: GuardedCall<Answer>, callKey: string, answer: Answer): Promise<Answer> => {
    const purchase = await caseFile.recordPurchaseBought(callKey, call.providerIdOf(answer), answer);
    return purchase.provider_id === call.providerIdOf(answer) ? answer : (purchase.answer as Answer);
  };
  const send = async <Answer>(call: GuardedCall<Answer>, callKey: string): Promise<Answer> => {
    let answer: Answer;
    try {
      answer = await call.create();
    } catch (error) {
      // Nothing was made: forget the intent, so that the next try sends the call again.
      if (!creationOutcomeUnknown(error)) await caseFile.renewPurchaseIntent(callKey, { forget: true });
      throw error;
    }
    return bought(call, callKey, answer);
  };

  const boughtMeanwhile = async <Answer>(callKey: string): Promise<Answer> => {
    const purchase = await caseFile.purchase(callKey);
    if (purchase?.state !== 'bought') throw new Error(`the purchase ${callKey} changed while it was looked for`);
    return purchase.answer as Answer;
  };

  const guardedCall = async <Answer>(call: GuardedCall<Answer>): Promise<Answer> => {
    const key = call.callKey ? parseCallKey(call.callKey) : undefined;
    if (!key) return call.create();
    const { purchase, recorded } = await caseFile.recordPurchaseIntent({
      callKey: key.callKey,
      kind: call.kind,
      subject: call.subject,
      fresh: call.fresh === true,
    });
    if (recorded) return send(call, key.callKey);
    if (purchase.state === 'bought') return purchase.answer as Answer;
    const search = await call.find(purchase);
    if ('found' in search) return bought(call, key.callKey, search.found);
    const since = purchase.intended_at.toISOString();
    const intendedAt = purchase.intended_at.getTime();
    // Nothing made yet proves nothing while the call an earlier attempt sent may still arrive.
    const answeredBy = intendedAt + inFlightMs;
    if ('nothingMade' in search && Date.now() >= answeredBy) {
      // Another attempt of the call may have recorded what it bought since this one read the row
      // (and a search that runs meanwhile sees it held): then that is the answer, nothing is sent.
      if (await caseFile.renewPurchaseIntent(key.callKey)) return send(call, key.callKey);
      return boughtMeanwhile(key.callKey);
    }
    const evidence = 'nothingMade' in search ? search.nothingMade : search.notFound;
    // A final search still waits for that call too.
    const searchedUntil = 'notFound' in search && search.final !== true ? intendedAt + searchBoundMs : 0;
    const again = purchase.state === 'intended' ? nextSearchInMs(Math.max(searchedUntil, answeredBy)) : undefined;
    if (again !== undefined) {
      throw ApplicationFailure.create({
        type: PURCHASE_SEARCH_PENDING,
        message: `looking for what the provider made for ${key.callKey} since ${since}: ${evidence}`,
        nonRetryable: false,
        details: [{ callKey: key.callKey, since, evidence }],
        nextRetryDelay: again,
      });
    }
    // The search is over (its bound or the activity's budget has passed) with nothing found: an
    // operator decides. Nothing is sent while an earlier call may still answer: it could buy twice.
    await caseFile.recordPurchaseUnknown(key.callKey, evidence);
    throw purchaseOutcomeUnknown(key.callKey, since, evidence);
  };

  // The attempt heartbeats for as long as it runs, its case-file reads and writes too: one slowed
  // there (a busy pool, a loaded worker) would otherwise time out while it goes on, and Temporal's
  // next attempt of the same call would run beside it.
  return <Answer>(call: GuardedCall<Answer>): Promise<Answer> => whileHeartbeating(() => guardedCall(call));
}

export type PurchaseGuard = ReturnType<typeof createPurchaseGuard>;

/** The failure an operator reads: what is unknown, since when, and what the search saw. */
export function purchaseOutcomeUnknown(callKey: string, since: string, evidence: string): ApplicationFailure {
  return ApplicationFailure.create({
    type: PURCHASE_OUTCOME_UNKNOWN,
    message: purchaseOutcomeUnknownMessage({ callKey, since, evidence }),
    nonRetryable: true,
    details: [{ callKey, since, evidence }],
  });
}

/** How often a search is tried again while it may still find something. */
const SEARCH_EVERY_MS = 5_000;
/**
 * Time kept before the activity's budget ends for the last search to be scheduled and run: a
 * quarter of the budget, at least a second (a busy worker starts an attempt late), at most ten.
 */
const lastSearchMarginMs = (budgetMs: number) => Math.min(10_000, Math.max(1_000, budgetMs / 4));

/**
 * When to search again (its retry delay), or undefined when the search is over: its bound has
 * passed, or the activity's budget (schedule-to-close) would end before another search. The last
 * search then fails for good, so that the step hears "purchase outcome unknown", never a timeout
 * that names no purchase.
 */
function nextSearchInMs(boundAt: number): number | undefined {
  const info = currentActivity()?.info;
  const budgetEnd = info?.scheduleToCloseTimeoutMs
    ? info.scheduledTimestampMs + info.scheduleToCloseTimeoutMs - lastSearchMarginMs(info.scheduleToCloseTimeoutMs)
    : Number.POSITIVE_INFINITY;
  const left = Math.min(boundAt, budgetEnd) - Date.now();
  return left > 0 ? Math.min(SEARCH_EVERY_MS, left) : undefined;
}
