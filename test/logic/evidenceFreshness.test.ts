/**
 * Evidence validity windows at completion, with the provider's answers stubbed and windows of a
 * second or two: a credit report that went stale while the identity check waited is bought anew
 * (one new purchase, a new need) and announced before the journey completes; with
 * `refreshStale: false` it is flagged instead; evidence still fresh is left alone; and a window is
 * measured from the provider's own date where the data carries one (an IDV's `date_completed`),
 * renewed once only when even a renewal leaves it stale.
 */
import { randomUUID } from 'node:crypto';
import { waitForStatus } from '../../cli/watchStatus';
import type { CreditReportSummary } from '../../case-file/summaries';
import { journeyStatusQuery, type JourneyStatus } from '../../client/journeyMessages';
import { startJourneyLogic, type JourneyLogic, pendingIdvRequest } from '../support/journeyLogic';
import { waitUntil } from '../support/waitUntil';

/** The credit reports asked for, by case: whether each was a fresh purchase, and under which key. */
const reportsAsked = new Map<string, { fresh: boolean; key: string | undefined }[]>();
/** IDV requests created, by person. */
const requestsMade: { personId: string; requestId: string }[] = [];
/** What each IDV result says its `date_completed` is, by person (absent: now). */
const completedAt = new Map<string, string>();
/** Bank connections and affordability insights asked for, by case. */
const connectionsMade: string[] = [];
const insightsAsked: string[] = [];
/** The banking data's last transaction: today, so only a window shorter than a day finds it stale. */
const today = new Date().toISOString().slice(0, 10);

const report = (caseId: string, n: number): CreditReportSummary => ({
  case_file: null,
  report_id: `report-${caseId}-${n}`,
  company_id: 'company-1',
  status: 'Complete',
  picklist: null,
  report: {
    provider_id: 'CR-1',
    company_name: 'Acme Widgets Ltd',
    company_number: '05555555',
    country_code: 'GB',
    credit_score: 512,
  },
});

let logic: JourneyLogic;
beforeAll(async () => {
  logic = await startJourneyLogic({
    requestCreditReport: async (input) => {
      const caseId = String((input as { caseId?: string }).caseId);
      const asked = reportsAsked.get(caseId) ?? [];
      asked.push({ fresh: input.fresh === true, key: input.idempotencyKey });
      reportsAsked.set(caseId, asked);
      return report(caseId, asked.length);
    },
    openIdentityVerificationRequest: async ({ personId }) => {
      const requestId = `idv-${personId}-${requestsMade.length + 1}`;
      requestsMade.push({ personId, requestId });
      return pendingIdvRequest(personId, requestId);
    },
    createOpenBankingConnectionAndSubscribe: async ({ caseId }) => {
      connectionsMade.push(caseId);
      return {
        bank_connection_id: `conn-${caseId}`,
        entity_type: 'case',
        entity_id: caseId,
        status: 'Pending',
        connection_link: `https://bank.example/${caseId}/${connectionsMade.length}`,
      };
    },
    readConnectedAccount: async ({ bank_account_endpoint }) => ({
      case_file: null,
      account_connection_id: bank_account_endpoint.split('/').pop()!,
      bank_name: 'Fabrikam Bank',
      account_number_masked: '****4163',
      balance: { amount: 1200, currency: 'GBP' },
      balances: 1,
      transactions: 3,
      first_booking_date: '2026-10-01',
      last_booking_date: today,
    }),
    requestAffordabilityInsightAndSubscribe: async ({ caseId }) => {
      insightsAsked.push(caseId);
      return { request_id: `afford-${caseId}`, status: 'Pending' };
    },
    getAffordabilityInsight: async ({ caseId }) => ({
      case_file: null,
      request_id: `afford-${caseId}`,
      status: 'Complete',
      currency: 'GBP',
      monthly_income: 3000,
      monthly_expenditure: 2000,
      monthly_disposable_income: 1000,
    }),
    getAffordabilityInsightTransactions: async ({ caseId }) => ({
      case_file: null,
      request_id: `afford-${caseId}`,
      transactions: 3,
      first_booking_date: '2026-10-01',
      last_booking_date: today,
    }),
    getIdentityVerificationResult: async (input) => {
      const requestId = input.link?.split('/').pop() ?? input.requestId ?? '';
      const personId = requestsMade.find((r) => r.requestId === requestId)?.personId ?? '';
      return {
        case_file: null,
        checks: 0,
        request_id: requestId,
        person_id: personId,
        status: 'Completed',
        verification_status: 'Approved',
        date_completed: completedAt.get(personId) ?? new Date().toISOString(),
      };
    },
  });
});
afterAll(async () => {
  await logic?.stop();
});

/** A case with a credit report and one person's identity check, under `extra`. */
async function start(extra: Record<string, unknown>) {
  const caseId = randomUUID();
  const personId = `person-${randomUUID()}`;
  const handle = await logic.start({
    caseId,
    company: { company_id: 'company-1' },
    people: [{ personId }],
    steps: { creditReport: true, identityVerification: true },
    deadlines: { identityVerification: '30 seconds' },
    ...extra,
  });
  return { caseId, personId, handle, idvKey: `identity-verification/${personId}` };
}

/** The applicant completes the identity check the step waits on now. */
async function applicantCompletes(handle: Awaited<ReturnType<typeof start>>['handle'], idvKey: string) {
  const waiting = await waitForStatus(
    handle,
    journeyStatusQuery,
    (s) => s.steps[idvKey]?.state === 'waiting' && !!s.steps[idvKey]?.providerIds.request_id,
  );
  const step = waiting.steps[idvKey]!;
  const requestId = step.providerIds.request_id!;
  await logic.deliver(step.workflowId, { kind: 'idv', id: requestId }, 'IdentityVerification.Completed', {
    identity_request: { request_id: requestId, identity_result_endpoint: `https://provider.example/${requestId}` },
  });
  return requestId;
}

/** The case's LOS events in the order the journey sent them (deliveries may overtake each other). */
const eventsOf = (caseId: string) =>
  logic.events.filter((e) => e.caseId === caseId).sort((a, b) => a.sequence - b.sequence);

/** Waits until the credit report's evidence is past its window (workflow time is this clock). */
async function untilStale(status: JourneyStatus) {
  const validUntil = Date.parse(status.steps['credit-report']!.evidence!.validUntil);
  await waitUntil('the credit report goes past its window', () => Date.now() > validUntil, { timeoutMs: 10_000 });
}

test('a credit report that went stale while the identity check waited is bought anew once, announced, and the journey completes', async () => {
  const { caseId, handle, idvKey } = await start({ freshness: { creditReport: '2 seconds' } });
  const reported = await waitForStatus(handle, journeyStatusQuery, (s) => !!s.steps['credit-report']?.evidence);
  await untilStale(reported);
  await applicantCompletes(handle, idvKey);
  const done = await handle.result();

  expect(done.state).toBe('completed');
  const asked = reportsAsked.get(caseId)!;
  expect(asked).toHaveLength(2);
  expect(asked[1]).toMatchObject({ fresh: true, key: expect.stringContaining(`credit-report/2`) });
  const credit = done.steps['credit-report']!;
  expect(credit.attempts.map((a) => [a.attempt, a.need])).toEqual([
    [1, 1],
    [2, 2],
  ]);
  expect(credit.attempts[1]!.requestedBecause).toMatch(/^evidence stale: creditReport valid until \d{4}-/);
  expect(credit.evidence).toMatchObject({ kind: 'creditReport', refreshes: 1, stale: false, dateFrom: 'read' });
  expect(done.evidence?.['credit-report']).toEqual(credit.evidence);

  const types = eventsOf(caseId).map((e) => e.type);
  expect(types.filter((t) => t === 'case.evidence_refreshed')).toHaveLength(1);
  expect(types.indexOf('case.evidence_refreshed')).toBeLessThan(types.indexOf('case.completed'));
  expect(eventsOf(caseId).find((e) => e.type === 'case.evidence_refreshed')).toMatchObject({
    step: { key: 'credit-report', attempt: 2 },
    kind: 'creditReport',
    reason: credit.attempts[1]!.requestedBecause,
    validUntil: credit.evidence!.validUntil,
  });
});

test('with refreshStale false the journey completes with the stale item flagged and nothing bought again', async () => {
  const { caseId, handle, idvKey } = await start({ freshness: { creditReport: '1 second' }, refreshStale: false });
  const reported = await waitForStatus(handle, journeyStatusQuery, (s) => !!s.steps['credit-report']?.evidence);
  await untilStale(reported);
  await applicantCompletes(handle, idvKey);
  const done = await handle.result();

  expect(done.state).toBe('completed');
  expect(reportsAsked.get(caseId)).toHaveLength(1);
  expect(done.steps['credit-report']!.attempts).toHaveLength(1);
  expect(done.steps['credit-report']!.evidence).toMatchObject({ stale: true, refreshes: 0 });
  expect(done.steps[idvKey]!.evidence).toMatchObject({ stale: false });
  expect(done.reasons).toEqual([
    expect.stringMatching(/^completed with stale evidence: credit-report \(evidence stale/),
  ]);
  expect(eventsOf(caseId).map((e) => e.type)).not.toContain('case.evidence_refreshed');
  expect(eventsOf(caseId).find((e) => e.type === 'case.completed')?.reasons).toEqual(done.reasons);
});

test('evidence still within its window is not renewed', async () => {
  const { caseId, handle, idvKey } = await start({});
  await waitForStatus(handle, journeyStatusQuery, (s) => !!s.steps['credit-report']?.evidence);
  await applicantCompletes(handle, idvKey);
  const done = await handle.result();

  expect(done.state).toBe('completed');
  expect(reportsAsked.get(caseId)).toHaveLength(1);
  expect(Object.values(done.evidence ?? {}).map((e) => [e.kind, e.stale, e.refreshes])).toEqual([
    ['creditReport', false, 0],
    ['identityVerification', false, 0],
  ]);
  expect(done.reasons).toEqual([]);
  expect(eventsOf(caseId).map((e) => e.type)).not.toContain('case.evidence_refreshed');
});

test("an IDV's window runs from the provider's date_completed: one measured from long ago is renewed once, with a new link, then flagged", async () => {
  const { caseId, personId, handle, idvKey } = await start({});
  const longAgo = new Date(Date.now() - 100 * 86_400_000).toISOString();
  completedAt.set(personId, longAgo);
  const first = await applicantCompletes(handle, idvKey);
  // The renewal sends a new request, and so a new link, which the applicant completes too.
  const renewed = await waitForStatus(
    handle,
    journeyStatusQuery,
    (s) => s.steps[idvKey]?.attempt === 2 && s.steps[idvKey]?.state === 'waiting',
  );
  expect(renewed.steps[idvKey]!.providerIds.request_id).not.toBe(first);
  expect(renewed.steps[idvKey]!.links?.identity_link).not.toBe(`https://idv.example/${first}`);
  await applicantCompletes(handle, idvKey);
  const done = await handle.result();

  expect(done.state).toBe('completed');
  expect(requestsMade.filter((r) => r.personId === personId)).toHaveLength(2);
  const idv = done.steps[idvKey]!.evidence!;
  expect(idv).toMatchObject({
    kind: 'identityVerification',
    dateFrom: 'provider',
    measuredFrom: longAgo,
    validUntil: new Date(Date.parse(longAgo) + 90 * 86_400_000).toISOString(),
    refreshes: 1,
    stale: true,
  });
  expect(done.steps['credit-report']!.evidence).toMatchObject({ dateFrom: 'read', stale: false });
  expect(done.reasons).toEqual([expect.stringContaining(idvKey)]);
  expect(eventsOf(caseId).filter((e) => e.type === 'case.evidence_refreshed')).toHaveLength(1);
});

/** The applicant connects their bank for the banking attempt that waits now. */
async function bankConnected(handle: Awaited<ReturnType<typeof start>>['handle'], caseId: string, attempt: number) {
  const waiting = await waitForStatus(
    handle,
    journeyStatusQuery,
    (s) => s.steps.banking?.attempt === attempt && s.steps.banking.state === 'waiting',
  );
  await logic.deliver(
    waiting.steps.banking!.workflowId,
    { kind: 'case-banking', id: caseId },
    'OpenBankingProcessing.Completed',
    {
      bank_connection_id: `conn-${caseId}`,
      status: 'Connected',
      connected_accounts: [
        {
          account_connection_id: 'acct-0',
          bank_account_endpoint: 'https://provider.example/accounts/acct-0',
          bank_account_balances_endpoint: 'https://provider.example/accounts/acct-0/balances',
          bank_account_transactions_endpoint: 'https://provider.example/accounts/acct-0/transactions',
        },
      ],
    },
  );
}

/** The provider completes the affordability insight the attempt waits for now. */
async function insightReady(handle: Awaited<ReturnType<typeof start>>['handle'], caseId: string, attempt: number) {
  const waiting = await waitForStatus(
    handle,
    journeyStatusQuery,
    (s) => s.steps.affordability?.attempt === attempt && s.steps.affordability.state === 'waiting',
  );
  await logic.deliver(
    waiting.steps.affordability!.workflowId,
    { kind: 'affordability', id: `afford-${caseId}` },
    'AffordabilityInsights.Completed',
    {
      request_id: `afford-${caseId}`,
      affordability_insight_endpoint: `https://provider.example/affordability/${caseId}`,
      affordability_insight_transactions_endpoint: `https://provider.example/affordability/${caseId}/transactions`,
    },
  );
}

test('stale banking data is renewed with a new connection, and affordability, computed from it, runs again after it; each once', async () => {
  const caseId = randomUUID();
  // Measured from the last transaction (today, midnight UTC): a window of a second has long passed.
  const handle = await logic.start({
    caseId,
    steps: { banking: 'open_banking', affordability: true },
    freshness: { bankTransactions: '1 second' },
  });
  await bankConnected(handle, caseId, 1);
  await insightReady(handle, caseId, 1);
  await bankConnected(handle, caseId, 2);
  await insightReady(handle, caseId, 2);
  const done = await handle.result();

  expect(done.state).toBe('completed');
  expect(connectionsMade.filter((c) => c === caseId)).toHaveLength(2);
  expect(insightsAsked.filter((c) => c === caseId)).toHaveLength(2);
  expect(done.steps.banking!.evidence).toMatchObject({
    kind: 'bankTransactions',
    dateFrom: 'provider',
    measuredFrom: `${today}T00:00:00.000Z`,
    refreshes: 1,
    // The renewal could not move the last transaction's date: flagged, not renewed again.
    stale: true,
  });
  expect(done.steps.affordability!.evidence).toMatchObject({
    kind: 'affordability',
    refreshes: 1,
    stale: false,
    lastRefreshReason: expect.stringMatching(/^runs again after banking \(evidence stale: bankTransactions/),
  });
  expect(done.steps.affordability!.attempts.map((a) => a.need)).toEqual([1, 2]);
  const refreshed = eventsOf(caseId).filter((e) => e.type === 'case.evidence_refreshed');
  expect(refreshed.map((e) => [e.step?.key, e.kind])).toEqual([
    ['banking', 'bankTransactions'],
    ['affordability', 'affordability'],
  ]);
  expect(done.reasons).toEqual([expect.stringContaining('completed with stale evidence: banking')]);
});
