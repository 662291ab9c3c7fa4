/**
 * Found by the model-based fault test (test/faults/operatorModel.test.ts), kept here as plain
 * regressions: everything a journey buys is recorded, and what it records is what the provider did.
 *
 * - A credit report whose creating call's answer is lost (the provider made the report; the
 *   simulator ignores idempotency keys, as the spec gives none) cannot be found: the step waits for
 *   an operator, "purchase outcome unknown since …", with the call in the case's purchase ledger,
 *   and nothing is bought twice, whether the operator looks again, waives or cancels, or the waive
 *   reaches the call while it waits for the answer that is then lost.
 * - An IDV step completed by a link the person was sent earlier (they still had it after an
 *   operator asked for a fresh request) named the new request, still Pending at the provider,
 *   while the case file held the result of the one they completed.
 */
import { startStack, type Stack } from '../../cli/stack';
import { waitForStatus } from '../../cli/watchStatus';
import {
  cancelJourneySignal,
  journeyStatusQuery,
  retryStepUpdate,
  waiveStepUpdate,
  type JourneyStatus,
} from '../../client/journeyMessages';
import { simulatorControl } from '../support/faultHarness/rawProviderApi';
import { testCaseFileOption, testDirectory, testTemporalConfig, testWorkflowBundle } from '../setup/testEnvironment';
import { formatEvidence } from '../../cli/caseFileCommands';
import { formatStatus } from '../../cli/journeyFormat';
import { startOnboardCase } from '../support/startOnboardCase';
import { waitUntil } from '../support/waitUntil';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({
    temporal: testTemporalConfig(),
    caseFile: testCaseFileOption(),
    workflowBundle: testWorkflowBundle(),
    simulatorSeed: 2022,
    spoolDir: testDirectory('spool'),
    processingDelayMs: 20,
    // An unknown outcome is concluded once the lost call can no longer answer: 15 s, not 25.
    providerRequestTimeoutMs: 5_000,
  });
});
afterAll(async () => {
  await stack?.stop();
});

const control = (path: string, body?: unknown, method?: string) =>
  simulatorControl(stack.simulator)(path, body, method);

const OUTCOME_UNKNOWN = /^purchase outcome unknown since \d{4}-\d\d-\d\dT[^ ]+: the provider may have created it/;

/** The credit report step waits for an operator because its purchase's outcome is unknown. */
const outcomeUnknown = (s: JourneyStatus) => {
  const step = s.steps['credit-report'];
  return s.state === 'needs_attention' && step?.state === 'needs_attention' && OUTCOME_UNKNOWN.test(step.reason ?? '');
};

async function newCompany(n: number) {
  const caseId = (await control('/cases', {})).case_id as string;
  const companyId = (
    await control('/companies', {
      company_name: `Unknown Outcome ${n} Ltd`,
      company_number: `UO00000${n}`,
      country_code: 'GB',
    })
  ).company_id as string;
  return { caseId, companyId };
}

function startCreditReport(caseId: string, companyId: string) {
  return startOnboardCase(stack.client, {
    taskQueue: stack.temporal.taskQueue,
    args: [
      {
        caseId,
        company: { company_id: companyId },
        steps: { creditReport: true },
        deadlines: { providerCalls: '1 minute' },
      },
    ],
  });
}

/** A credit report journey whose first POST makes the report and loses its answer. */
async function creditReportWithUnknownOutcome(n: number) {
  const { caseId, companyId } = await newCompany(n);
  await control('/faults', {
    method: 'POST',
    path: '/v2/company-credit-reports',
    creation_answer_lost: true,
    times: 1,
  });
  const handle = await startCreditReport(caseId, companyId);
  const status = await waitForStatus(handle, journeyStatusQuery, outcomeUnknown, 30_000);
  return { caseId, companyId, handle, status };
}

/** The provider made one report, and the case's ledger holds its call as unknown, never as a second purchase. */
async function boughtOnceAndLedgered(caseId: string, companyId: string, states: string[] = ['unknown']) {
  const ledger = await control(`/ledger?company_id=${companyId}`);
  expect(ledger.creditReports).toHaveLength(1);
  const purchases = await stack.caseFile.purchases(caseId);
  expect(purchases).toHaveLength(1);
  const [row] = purchases;
  expect(row).toMatchObject({
    call_key: `case/${caseId}/credit-report/1/request`,
    kind: 'credit-report',
    provider_id: null,
    fresh: false,
  });
  expect(states).toContain(row!.state);
  // The purchase is visible in the evidence read too.
  expect((await stack.caseFile.evidence(caseId)).purchases.map((p) => p.call_key)).toEqual([row!.call_key]);
}

test('a credit report whose answer was lost needs attention; a retry looks again, a waive closes it, nothing is bought twice', async () => {
  const { caseId, companyId, handle, status } = await creditReportWithUnknownOutcome(1);
  const step = status.steps['credit-report']!;
  expect(step.reason).toContain(`(case/${caseId}/credit-report/1/request)`);
  expect(step.actions).toEqual(['retryStep credit-report', 'waiveStep credit-report']);
  await boughtOnceAndLedgered(caseId, companyId);
  // What `journey status` and `journey evidence` print.
  const shown = formatStatus(status);
  expect(shown).toMatch(/^ {2}credit-report +needs_attention +1 /m);
  expect(shown).toMatch(/^ {4}reason: purchase outcome unknown since \S+: the provider may have created it/m);
  expect(formatEvidence(await stack.caseFile.evidence(caseId))).toContain(
    `    case/${caseId}/credit-report/1/request credit-report: outcome unknown (`,
  );

  // Looking again finds nothing new (the spec has no way to find a report): attention again, at once.
  await handle.executeUpdate(retryStepUpdate, { args: [{ step: 'credit-report', reason: 'look again' }] });
  const again = await waitForStatus(
    handle,
    journeyStatusQuery,
    (s) => s.steps['credit-report']?.attempt === 2 && outcomeUnknown(s),
    30_000,
  );
  expect(again.steps['credit-report']!.need).toBe(1);
  await boughtOnceAndLedgered(caseId, companyId);

  await handle.executeUpdate(waiveStepUpdate, { args: [{ step: 'credit-report', reason: 'report on paper' }] });
  const outcome = await handle.result();
  expect(outcome.steps['credit-report']).toMatchObject({ state: 'waived' });
  await boughtOnceAndLedgered(caseId, companyId);
}, 90_000);

test('a cancel while a credit report purchase outcome is unknown: the call stays in the ledger, nothing is bought twice', async () => {
  const { caseId, companyId, handle } = await creditReportWithUnknownOutcome(2);
  await handle.signal(cancelJourneySignal, { reason: 'closing' });
  const outcome = await handle.result();
  expect(outcome.state).toBe('cancelled');
  await boughtOnceAndLedgered(caseId, companyId);
}, 60_000);

test('a waive while a credit report call is in flight and its answer is then lost: the call is in the ledger, nothing is bought twice', async () => {
  const caseId = (await control('/cases', {})).case_id as string;
  const companyId = (
    await control('/companies', { company_name: 'In Flight Ltd', company_number: 'IF000001', country_code: 'GB' })
  ).company_id as string;
  // The provider makes the report at once; its answer is held for 3 s, then cut.
  await control('/faults', {
    method: 'POST',
    path: '/v2/company-credit-reports',
    creation_answer_lost: true,
    latency_ms: 3_000,
    times: 1,
  });
  const handle = await startCreditReport(caseId, companyId);
  await waitUntil(
    'the report made',
    () => [...stack.simulator.store.creditReports.values()].some((r) => r.company_id === companyId),
    { timeoutMs: 20_000, intervalMs: 10 },
  );
  // The waive reaches the attempt while the call waits for its answer; the activity hears of it
  // only at its next heartbeat, and lets the call run to its (lost) answer.
  await handle.executeUpdate(waiveStepUpdate, { args: [{ step: 'credit-report', reason: 'report on paper' }] });
  const outcome = await handle.result();
  expect(outcome.steps['credit-report']).toMatchObject({ state: 'waived' });
  // The cancelled activity is not retried: its intent stays, its outcome never learnt.
  await boughtOnceAndLedgered(caseId, companyId, ['intended', 'unknown']);
}, 60_000);

test('an operator who buys anew with fresh after an unknown outcome: a second report, recorded as fresh, and the step completes', async () => {
  const { caseId, companyId, handle } = await creditReportWithUnknownOutcome(3);
  await handle.executeUpdate(retryStepUpdate, {
    args: [{ step: 'credit-report', reason: 'provider says no report was made', fresh: true }],
  });
  const outcome = await handle.result();
  expect(outcome.state).toBe('completed');
  const step = outcome.steps['credit-report']!;
  expect(step).toMatchObject({ state: 'completed', need: 2 });
  const ledger = await control(`/ledger?company_id=${companyId}`);
  expect(ledger.creditReports).toHaveLength(2);
  const purchases = await stack.caseFile.purchases(caseId);
  expect(purchases.map((p) => [p.call_key, p.state, p.fresh])).toEqual([
    [`case/${caseId}/credit-report/1/request`, 'unknown', false],
    [`case/${caseId}/credit-report/2/request`, 'bought', true],
  ]);
  expect(purchases[1]!.provider_id).toBe(step.providerIds.report_id);
  expect(ledger.creditReports.map((r: { report_id: string }) => r.report_id)).toContain(step.providerIds.report_id);
}, 60_000);

test('an applicant who completes the link sent before a fresh request: the step names that request, Completed at the provider, and its result is filed', async () => {
  const caseId = (await control('/cases', {})).case_id as string;
  const personId = (await control('/persons', {})).person_id as string;
  const idv = `identity-verification/${personId}`;
  const handle = await startOnboardCase(stack.client, {
    taskQueue: stack.temporal.taskQueue,
    args: [
      {
        caseId,
        people: [{ personId }],
        steps: { identityVerification: true },
        deadlines: { identityVerification: '1 minute', reconcileAfter: '3 seconds' },
      },
    ],
  });
  const first = await waitForStatus(
    handle,
    journeyStatusQuery,
    (s) => s.steps[idv]?.state === 'waiting' && Boolean(s.steps[idv]?.providerIds.request_id),
  );
  const earlier = first.steps[idv]!.providerIds.request_id!;
  await handle.executeUpdate(retryStepUpdate, {
    args: [{ step: idv, reason: 'applicant says the link broke', fresh: true }],
  });
  const second = await waitForStatus(
    handle,
    journeyStatusQuery,
    (s) =>
      s.steps[idv]?.attempt === 2 && s.steps[idv]?.state === 'waiting' && Boolean(s.steps[idv]?.providerIds.request_id),
  );
  const later = second.steps[idv]!.providerIds.request_id!;
  expect(later).not.toBe(earlier);

  await control(`/identity-verifications/${earlier}/complete`, { verification_status: 'Approved' });
  const outcome = await handle.result();
  expect(outcome.steps[idv]).toMatchObject({
    state: 'completed',
    providerIds: { request_id: earlier },
    detail: { verificationStatus: 'Approved', requests: [later] },
  });
  expect(stack.simulator.store.identityVerifications.get(earlier)).toMatchObject({
    status: 'Completed',
    verification_status: 'Approved',
  });
  expect((await stack.caseFile.evidence(caseId)).idvResults.map((r) => r.request_id)).toEqual([earlier]);
}, 60_000);
