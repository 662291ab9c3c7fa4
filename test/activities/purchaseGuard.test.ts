/**
 * A creating call's next attempt never concludes "purchase outcome unknown" while the call an
 * earlier attempt sent may still be answering (its attempt timed out on a busy worker, the call
 * went on): it searches again later, and the late answer is recorded as the need's one purchase.
 * Once that time has passed with nothing found, the outcome is unknown, as before. An attempt
 * heartbeats throughout, so that a slow case file never makes Temporal start the next one beside it.
 */
import { ApplicationFailure } from '@temporalio/common';
import { MockActivityEnvironment } from '@temporalio/testing';
import { DefaultLogger } from '@temporalio/worker';
import type { CaseFileStore } from '../../case-file/store';
import type { Intent, Purchase } from '../../case-file/purchaseLedger';
import { createPurchaseGuard, PURCHASE_OUTCOME_UNKNOWN, PURCHASE_SEARCH_PENDING } from '../../activities/purchaseGuard';

const CALL_KEY = 'case/case-1/credit-report/1/report';

/** The purchase ledger's four writes, in memory. */
function ledger() {
  const rows = new Map<string, Purchase>();
  const store = {
    async recordPurchaseIntent(intent: Intent) {
      const existing = rows.get(intent.callKey);
      if (existing) return { purchase: existing, recorded: false };
      const purchase: Purchase = {
        call_key: intent.callKey,
        case_id: 'case-1',
        step: 'credit-report',
        need: 1,
        call: 'report',
        kind: intent.kind,
        subject: intent.subject,
        state: 'intended',
        intended_at: new Date(),
        settled_at: null,
        provider_id: null,
        answer: null,
        fresh: intent.fresh,
        evidence: null,
      };
      rows.set(intent.callKey, purchase);
      return { purchase, recorded: true };
    },
    async recordPurchaseBought(callKey: string, providerId: string, answer: unknown) {
      const purchase = { ...rows.get(callKey)!, state: 'bought' as const, provider_id: providerId, answer };
      rows.set(callKey, purchase);
      return purchase;
    },
    async recordPurchaseUnknown(callKey: string, evidence: string) {
      rows.set(callKey, { ...rows.get(callKey)!, state: 'unknown', evidence });
    },
    async renewPurchaseIntent(callKey: string) {
      return rows.get(callKey)?.provider_id === null;
    },
    async purchase(callKey: string) {
      return rows.get(callKey);
    },
  };
  return { rows, store: store as unknown as CaseFileStore };
}

/** A credit report: the spec offers no way to find one, so every search is final. */
function reportCall(create: () => Promise<{ report_id: string }>) {
  return {
    callKey: CALL_KEY,
    kind: 'credit-report' as const,
    subject: 'company-1',
    providerIdOf: (answer: { report_id: string }) => answer.report_id,
    create,
    find: async () => ({ notFound: 'the provider offers no list of reports', final: true }),
  };
}

/** An IDV request: its search reads the person's list, which shows nothing made yet. */
function idvCall(create: () => Promise<{ report_id: string }>) {
  return {
    ...reportCall(create),
    find: async () => ({ nothingMade: "the person's list holds no request created since the intent" }),
  };
}

const failureType = (error: unknown) => (error instanceof ApplicationFailure ? error.type : String(error));

test('while the first attempt’s call may still answer, the next attempt searches again later; the late answer is the purchase', async () => {
  const { rows, store } = ledger();
  const guarded = createPurchaseGuard(store, { inFlightMs: 60_000 });
  let answer: (value: { report_id: string }) => void = () => {};
  const firstAttempt = guarded(reportCall(() => new Promise((resolve) => (answer = resolve))));

  const nextAttempt = await guarded(reportCall(async () => ({ report_id: 'never-sent' }))).catch(failureType);
  expect({ nextAttempt, state: rows.get(CALL_KEY)!.state }).toEqual({
    nextAttempt: PURCHASE_SEARCH_PENDING,
    state: 'intended',
  });

  answer({ report_id: 'report-1' });
  await expect(firstAttempt).resolves.toEqual({ report_id: 'report-1' });
  expect(rows.get(CALL_KEY)).toMatchObject({ state: 'bought', provider_id: 'report-1' });
});

test('once the call can no longer answer and nothing is found, the outcome is unknown', async () => {
  const { rows, store } = ledger();
  const guarded = createPurchaseGuard(store, { inFlightMs: 0 });
  const lost = guarded(reportCall(() => Promise.reject(new Error('socket hang up')))).catch(failureType);
  expect(await lost).toBe('Error: socket hang up');

  const nextAttempt = await guarded(reportCall(async () => ({ report_id: 'never-sent' }))).catch(failureType);
  expect({ nextAttempt, state: rows.get(CALL_KEY)!.state }).toEqual({
    nextAttempt: PURCHASE_OUTCOME_UNKNOWN,
    state: 'unknown',
  });
});

test('a list showing nothing made yet sends nothing again while the first attempt’s call may still arrive', async () => {
  const { rows, store } = ledger();
  const guarded = createPurchaseGuard(store, { inFlightMs: 60_000 });
  let sent = 0;
  let answer: (value: { report_id: string }) => void = () => {};
  const firstAttempt = guarded(idvCall(() => new Promise((resolve) => (answer = resolve))));

  const nextAttempt = await guarded(idvCall(async () => ({ report_id: `request-${++sent}` }))).catch(failureType);
  expect({ nextAttempt, sentAgain: sent }).toEqual({ nextAttempt: PURCHASE_SEARCH_PENDING, sentAgain: 0 });

  answer({ report_id: 'request-0' });
  await expect(firstAttempt).resolves.toEqual({ report_id: 'request-0' });
  expect(rows.get(CALL_KEY)).toMatchObject({ state: 'bought', provider_id: 'request-0' });
});

test('an activity whose budget ends while the first call may still answer sends nothing again: an operator decides', async () => {
  const { rows, store } = ledger();
  const guarded = createPurchaseGuard(store, { inFlightMs: 60_000 });
  let sent = 0;
  const firstAttempt = guarded(idvCall(() => new Promise(() => {})));
  void firstAttempt;

  // The last attempt: scheduled 10 s ago with a budget of 10.5 s, so no search fits before it ends.
  // The attempt's failure is what the test reads: the SDK's log of it would only print its stack.
  const lastAttempt = new MockActivityEnvironment(
    { scheduledTimestampMs: Date.now() - 10_000, scheduleToCloseTimeoutMs: 10_500 },
    { logger: new DefaultLogger('ERROR') },
  );
  const outcome = await lastAttempt
    .run(() => guarded(idvCall(async () => ({ report_id: `request-${++sent}` }))))
    .catch(failureType);
  expect({ outcome, sentAgain: sent, state: rows.get(CALL_KEY)!.state }).toEqual({
    outcome: PURCHASE_OUTCOME_UNKNOWN,
    sentAgain: 0,
    state: 'unknown',
  });
});

test('a search that sees nothing made while another attempt records the purchase sends nothing: that purchase is the answer', async () => {
  const { rows, store } = ledger();
  const guarded = createPurchaseGuard(store, { inFlightMs: 0 });
  void guarded(idvCall(() => new Promise(() => {})));
  let sent = 0;
  const outcome = await guarded({
    ...idvCall(async () => ({ report_id: `request-${++sent}` })),
    // Meanwhile another attempt found the first call's request and recorded it: this search, run
    // after, no longer counts it (it is held) and sees nothing made.
    find: async () => {
      await store.recordPurchaseBought(CALL_KEY, 'request-0', { report_id: 'request-0' });
      return { nothingMade: "the person's list holds no request created since the intent that no case holds" };
    },
  });
  expect({ outcome, sentAgain: sent, row: rows.get(CALL_KEY)!.provider_id }).toEqual({
    outcome: { report_id: 'request-0' },
    sentAgain: 0,
    row: 'request-0',
  });
});

test('an attempt heartbeats while the case file is slow: it is never taken for dead while it goes on', async () => {
  const { store } = ledger();
  const slowStore = Object.create(store) as CaseFileStore;
  let heartbeats = 0;
  let release = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  // The intent's write is held until the attempt has heartbeaten twice, or for 5 s at most.
  slowStore.recordPurchaseIntent = async (intent: Intent) => {
    await Promise.race([released, new Promise((resolve) => setTimeout(resolve, 5_000).unref())]);
    return store.recordPurchaseIntent(intent);
  };
  const attempt = new MockActivityEnvironment({ heartbeatTimeoutMs: 10_000 });
  attempt.on('heartbeat', () => {
    if (++heartbeats >= 2) release();
  });
  const outcome = await attempt.run(() =>
    createPurchaseGuard(slowStore)(reportCall(async () => ({ report_id: 'report-1' }))),
  );
  expect(outcome).toEqual({ report_id: 'report-1' });
  expect(heartbeats).toBeGreaterThanOrEqual(2);
});
