/**
 * Affordability depends on banking, with the provider's answers stubbed and its events signalled
 * as the resource workflows would: it starts only once banking has completed, waits naming banking
 * while the applicant rejects the connection, and a waived banking leaves it a way forward.
 */
import { randomUUID } from 'node:crypto';
import { waitForStatus } from '../../cli/watchStatus';
import { journeyStatusQuery, waiveStepUpdate, type JourneyStatus } from '../../client/journeyMessages';
import { startJourneyLogic, type JourneyLogic } from '../support/journeyLogic';

/** The affordability requests the provider was asked for, by case. */
const affordabilityAsked: string[] = [];

let logic: JourneyLogic;
beforeAll(async () => {
  logic = await startJourneyLogic({
    createOpenBankingConnectionAndSubscribe: async ({ caseId }) => ({
      bank_connection_id: `conn-${caseId}`,
      entity_type: 'case',
      entity_id: caseId,
      status: 'Pending',
      connection_link: `https://bank.example/${caseId}`,
    }),
    readConnectedAccount: async ({ bank_account_endpoint }) => ({
      case_file: null,
      account_connection_id: bank_account_endpoint.split('/').pop()!,
      bank_name: 'Fabrikam Bank',
      account_number_masked: '****4163',
      balance: { amount: 1200, currency: 'GBP' },
      balances: 1,
      transactions: 3,
      first_booking_date: '2026-10-01',
      // Transactions up to today: banking evidence within its window, which nothing renews at completion.
      last_booking_date: new Date().toISOString().slice(0, 10),
    }),
    requestAffordabilityInsightAndSubscribe: async ({ caseId }) => {
      affordabilityAsked.push(caseId);
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
      last_booking_date: '2026-11-01',
    }),
  });
});
afterAll(async () => {
  await logic?.stop();
});

async function journey() {
  const caseId = randomUUID();
  const handle = await logic.start({ caseId, steps: { banking: 'open_banking', affordability: true } });
  const banking = `case/${caseId}/banking`;
  await waitForStatus(handle, journeyStatusQuery, (s) => s.steps.banking?.state === 'waiting');
  return { caseId, handle, banking };
}

const connection = (caseId: string, status: string, accounts: number) => ({
  bank_connection_id: `conn-${caseId}`,
  status,
  connected_accounts: Array.from({ length: accounts }, (_, n) => ({
    account_connection_id: `acct-${n}`,
    bank_account_endpoint: `https://provider.example/accounts/acct-${n}`,
    bank_account_balances_endpoint: `https://provider.example/accounts/acct-${n}/balances`,
    bank_account_transactions_endpoint: `https://provider.example/accounts/acct-${n}/transactions`,
  })),
});

test('affordability waits for banking, then runs once banking has completed, and the journey completes', async () => {
  const { caseId, handle, banking } = await journey();
  const before = await handle.query(journeyStatusQuery);
  expect(before.steps.affordability).toMatchObject({ state: 'pending', reason: expect.stringContaining('banking') });
  expect(affordabilityAsked).not.toContain(caseId);

  const resource = { kind: 'case-banking' as const, id: caseId };
  await logic.deliver(banking, resource, 'OpenBankingProcessing.Completed', connection(caseId, 'Connected', 1));
  const affordability = `case/${caseId}/affordability`;
  await waitForStatus(handle, journeyStatusQuery, (s) => s.steps.affordability?.state === 'waiting');
  expect(affordabilityAsked).toContain(caseId);
  await logic.deliver(
    affordability,
    { kind: 'affordability', id: `afford-${caseId}` },
    'AffordabilityInsights.Completed',
    {
      request_id: `afford-${caseId}`,
      affordability_insight_endpoint: `https://provider.example/affordability/${caseId}`,
      affordability_insight_transactions_endpoint: `https://provider.example/affordability/${caseId}/transactions`,
    },
  );
  const outcome = await handle.result();
  expect(outcome.state).toBe('completed');
  expect(outcome.steps.affordability).toMatchObject({
    state: 'completed',
    detail: { monthly_disposable_income: 1000 },
  });
});

test('a rejected connection needs attention, affordability does not start, and a waived banking names the way forward', async () => {
  const { caseId, handle, banking } = await journey();
  const resource = { kind: 'case-banking' as const, id: caseId };
  await logic.deliver(banking, resource, 'OpenBankingProcessing.Completed', connection(caseId, 'Rejected', 0));
  const stuck: JourneyStatus = await waitForStatus(handle, journeyStatusQuery, (s) => s.operatorDeadline != null);
  expect(stuck.state).toBe('needs_attention');
  expect(stuck.steps.banking).toMatchObject({ state: 'needs_attention', reason: expect.stringContaining('rejected') });
  expect(stuck.steps.affordability).toMatchObject({ state: 'pending', reason: expect.stringContaining('banking') });
  expect(affordabilityAsked).not.toContain(caseId);

  await handle.executeUpdate(waiveStepUpdate, { args: [{ step: 'banking', reason: 'statements by post' }] });
  const after = await waitForStatus(handle, journeyStatusQuery, (s) => s.steps.banking?.state === 'waived');
  expect(after.steps.affordability!.actions).toEqual(['retryStep banking', 'waiveStep affordability']);
  expect(affordabilityAsked).not.toContain(caseId);
  await handle.terminate('test over');
});
