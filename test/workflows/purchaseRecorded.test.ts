/**
 * Found by the model-based fault test (test/faults/operatorModel.test.ts), kept here as plain
 * regressions: everything a journey buys is recorded, and what it records is what the provider did.
 *
 * - A waive or a cancel that reaches a credit report attempt while its creating call's answer is
 *   unknown (the answer lost, the call being retried) left the report bought at the provider and
 *   nowhere else: not in the step's ids, not in the case file.
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
} from '../../client/journeyMessages';
import { simulatorControl } from '../../bench/faultHarness/rawProviderApi';
import { testCaseFileOption, testDirectory, testTemporalConfig, testWorkflowBundle } from '../setup/testEnvironment';
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
  });
});
afterAll(async () => {
  await stack?.stop();
});

const control = (path: string, body?: unknown, method?: string) =>
  simulatorControl(stack.simulator)(path, body, method);

/**
 * A credit report journey whose first POST loses its answer and whose next three answer 503: the
 * call is being retried when the operator acts.
 */
async function creditReportWithUnknownOutcome(n: number) {
  const caseId = (await control('/cases', {})).case_id as string;
  const companyId = (
    await control('/companies', {
      company_name: `Unknown Outcome ${n} Ltd`,
      company_number: `UO00000${n}`,
      country_code: 'GB',
    })
  ).company_id as string;
  const lostBefore = stack.simulator.store.requests.filter((r) => r.response_lost).length;
  await control('/faults', { method: 'POST', path: '/v2/company-credit-reports', response_lost: true, times: 1 });
  await control('/faults', { method: 'POST', path: '/v2/company-credit-reports', status: 503, times: 3 });
  const handle = await startOnboardCase(stack.client, {
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
  // The provider made the report and the answer was cut: the activity is waiting to try again.
  await waitUntil(
    'the report bought and its answer lost',
    () => stack.simulator.store.requests.filter((r) => r.response_lost).length > lostBefore,
    { timeoutMs: 20_000, intervalMs: 10 },
  );
  return { caseId, companyId, handle };
}

async function recordedEverywhere(caseId: string, companyId: string, recorded: string | undefined) {
  const ledger = await control(`/ledger?company_id=${companyId}`);
  expect(ledger.creditReports).toHaveLength(1);
  const reportId = ledger.creditReports[0].report_id as string;
  expect(recorded).toBe(reportId);
  const filed = (await stack.caseFile.evidence(caseId)).creditReports.map((r) => r.report_id);
  expect(filed).toContain(reportId);
}

test('a waive while a credit report call is retried after a lost answer: the report it bought is in the step and the case file', async () => {
  const { caseId, companyId, handle } = await creditReportWithUnknownOutcome(1);
  await handle.executeUpdate(waiveStepUpdate, { args: [{ step: 'credit-report', reason: 'report on paper' }] });
  const outcome = await handle.result();
  expect(outcome.steps['credit-report']).toMatchObject({ state: 'waived' });
  await recordedEverywhere(caseId, companyId, outcome.steps['credit-report']!.providerIds.report_id);
}, 60_000);

test('a cancel while a credit report call is retried after a lost answer: the report it bought is in the attempt and the case file', async () => {
  const { caseId, companyId, handle } = await creditReportWithUnknownOutcome(2);
  await handle.signal(cancelJourneySignal, { reason: 'closing' });
  const outcome = await handle.result();
  expect(outcome.state).toBe('cancelled');
  await recordedEverywhere(caseId, companyId, outcome.steps['credit-report']!.attempts[0]!.providerIds.report_id);
}, 60_000);

test('a waive while a credit report call is in flight and its answer is then lost: the report it bought is in the step and the case file', async () => {
  const caseId = (await control('/cases', {})).case_id as string;
  const companyId = (
    await control('/companies', { company_name: 'In Flight Ltd', company_number: 'IF000001', country_code: 'GB' })
  ).company_id as string;
  // The provider makes the report at once; its answer is held for 3 s, then cut.
  await control('/faults', {
    method: 'POST',
    path: '/v2/company-credit-reports',
    response_lost: true,
    latency_ms: 3_000,
    times: 1,
  });
  const handle = await startOnboardCase(stack.client, {
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
  await waitUntil(
    'the report made',
    () => [...stack.simulator.store.creditReports.values()].some((r) => r.company_id === companyId),
    { timeoutMs: 20_000, intervalMs: 10 },
  );
  // The waive reaches the attempt while the call waits for its answer; the activity hears of it
  // only at its next heartbeat.
  await handle.executeUpdate(waiveStepUpdate, { args: [{ step: 'credit-report', reason: 'report on paper' }] });
  const outcome = await handle.result();
  expect(outcome.steps['credit-report']).toMatchObject({ state: 'waived' });
  await recordedEverywhere(caseId, companyId, outcome.steps['credit-report']!.providerIds.report_id);
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
