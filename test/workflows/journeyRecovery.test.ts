/**
 * Recovery the way an operations team needs it: a journey that needs attention stays open, an
 * operator retries or waives steps (Updates on the journey), a closed journey is run again with its
 * completed steps carried over, and no provider side effect is repeated. Real dev server, simulator,
 * bridge and worker; timers in seconds.
 */
import { WorkflowFailedError, WorkflowUpdateFailedError, type WorkflowHandle } from '@temporalio/client';
import { CancelledFailure } from '@temporalio/common';
import { formatRetryPlan } from '../../cli/journeyFormat';
import type { JourneyReadContext as CommandContext } from '../../client/journeyOperations';
import { planJourneyRetry, retryJourney } from '../../client/journeyRetry';
import { startStack, type Stack } from '../../cli/stack';
import { waitForStatus } from '../../cli/watchStatus';
import type { OnboardCaseInput } from '../../client/journeyInput';
import {
  journeyStatusQuery,
  retryStepUpdate,
  waiveStepUpdate,
  type JourneyStatus,
  type OnboardCaseWorkflow,
} from '../../client/journeyMessages';
import { testDirectory, testTemporalConfig, testWorkflowBundle, testCaseFileOption } from '../setup/testEnvironment';
import { simulatorControl } from '../support/faultHarness/rawProviderApi';
import { startOnboardCase } from '../support/startOnboardCase';
import { waitUntil } from '../support/waitUntil';

let stack: Stack;
let ctx: CommandContext;

beforeAll(async () => {
  stack = await startStack({
    temporal: testTemporalConfig(),
    caseFile: testCaseFileOption(),
    workflowBundle: testWorkflowBundle(),
    simulatorSeed: 909,
    spoolDir: testDirectory('spool'),
    processingDelayMs: 20,
  });
  ctx = { client: stack.client, taskQueue: stack.temporal.taskQueue, readModel: stack.caseFile };
});

afterAll(async () => {
  await stack?.stop();
});

const control = (path: string, body?: unknown) => simulatorControl(stack.simulator)(path, body);
const fast = {
  identityVerification: '30 seconds',
  banking: '30 seconds',
  affordability: '30 seconds',
  incomeEmployer: '30 seconds',
  picklist: '30 seconds',
};

/** A case of its own, with a company and a person of its own, so the simulator's ledger counts only this test. */
async function newCase(): Promise<{ caseId: string; companyId: string; personId: string }> {
  const caseId = (await control('/cases', { income_employer_outcome: 'Complete' })).case_id as string;
  const companyId = (
    await control('/companies', {
      company_name: `Recovery Ltd ${caseId.slice(0, 8)}`,
      company_number: caseId.slice(0, 8),
      country_code: 'GB',
    })
  ).company_id as string;
  const personId = (await control('/persons', {})).person_id as string;
  return { caseId, companyId, personId };
}

async function start(input: OnboardCaseInput): Promise<WorkflowHandle<OnboardCaseWorkflow>> {
  return startOnboardCase(stack.client, {
    workflowId: `case/${input.caseId}`,
    taskQueue: stack.temporal.taskQueue,
    args: [{ ...input, deadlines: { ...fast, ...input.deadlines } }],
  });
}

const ledger = ({ caseId, companyId, personId }: { caseId: string; companyId: string; personId: string }) => ({
  creditReports: [...stack.simulator.store.creditReports.values()].filter((r) => r.company_id === companyId).length,
  identityVerifications: [...stack.simulator.store.identityVerifications.values()].filter(
    (r) => r.person_id === personId,
  ).length,
  connections: [...stack.simulator.store.openBankingConnections.values()]
    .filter((c) => c.entity_id === caseId)
    .map((c) => c.bank_connection_id),
});

const idv = (personId: string) => `identity-verification/${personId}`;
const waitingFor = (keys: string[]) => (s: JourneyStatus) => keys.every((k) => s.steps[k]?.state === 'waiting');

/** Credit report completes, the IDV link expires, the applicant rejects the bank connection. */
async function caseNeedingAttention() {
  const ids = await newCase();
  const handle = await start({
    caseId: ids.caseId,
    company: { company_id: ids.companyId },
    people: [{ personId: ids.personId }],
    steps: { creditReport: true, identityVerification: true, banking: 'open_banking', affordability: true },
  });
  const waiting = await waitForStatus(handle, journeyStatusQuery, waitingFor([idv(ids.personId), 'banking']));
  await control(`/identity-verifications/${waiting.steps[idv(ids.personId)]!.providerIds.request_id}/expire`, {});
  await control(`/open-banking-connections/${waiting.steps.banking!.providerIds.bank_connection_id}/complete`, {
    status: 'Rejected',
  });
  const attention = await waitForStatus(handle, journeyStatusQuery, (s) => s.operatorDeadline != null);
  expect(attention).toMatchObject({
    state: 'needs_attention',
    steps: {
      'credit-report': { state: 'completed' },
      banking: { state: 'needs_attention' },
      affordability: { state: 'pending' },
    },
  });
  expect(attention.steps[idv(ids.personId)]!.state).toBe('expired');
  return { ...ids, handle, firstConnection: waiting.steps.banking!.providerIds.bank_connection_id! };
}

/** The applicant completes the new IDV request and connects their bank on the new connection. */
async function applicantCompletesNewAttempts(handle: WorkflowHandle, personId: string): Promise<JourneyStatus> {
  const again = await waitForStatus(
    handle,
    journeyStatusQuery,
    (s) => waitingFor([idv(personId), 'banking'])(s) && s.steps.banking!.attempt === 2,
  );
  await control(`/identity-verifications/${again.steps[idv(personId)]!.providerIds.request_id}/complete`, {
    verification_status: 'Approved',
  });
  await control(`/open-banking-connections/${again.steps.banking!.providerIds.bank_connection_id}/complete`, {
    status: 'Connected',
    accounts: 1,
  });
  return again;
}

test('retryStep runs a new attempt of each failed step; the journey completes without buying a second report', async () => {
  const c = await caseNeedingAttention();
  await expect(c.handle.executeUpdate(retryStepUpdate, { args: [{ step: 'credit-report' }] })).rejects.toMatchObject({
    cause: {
      message: expect.stringMatching(
        /credit-report is completed; a step can be retried when it is needs_attention, failed, expired, cancelled, waiting, waived/,
      ),
    },
  });
  await expect(c.handle.executeUpdate(retryStepUpdate, { args: [{ step: 'nope' }] })).rejects.toBeInstanceOf(
    WorkflowUpdateFailedError,
  );

  const retried = await c.handle.executeUpdate(retryStepUpdate, {
    args: [{ step: idv(c.personId), reason: 'applicant asked for a new link' }],
  });
  expect(retried.status).toMatchObject({ attempt: 2, workflowId: `case/${c.caseId}/${idv(c.personId)}/2` });
  await c.handle.executeUpdate(retryStepUpdate, { args: [{ step: 'banking' }] });
  const again = await applicantCompletesNewAttempts(c.handle, c.personId);
  expect(again.steps[idv(c.personId)]!.links).toMatchObject({ identity_link: expect.stringContaining('https://') });
  expect(again.steps.banking!.links).toMatchObject({ bank_connection_link: expect.stringContaining('https://') });

  const outcome = await c.handle.result();
  expect(outcome.state).toBe('completed');
  expect(outcome.steps.banking).toMatchObject({
    state: 'completed',
    attempt: 2,
    providerIds: { bank_connection_id: again.steps.banking!.providerIds.bank_connection_id },
  });
  expect(outcome.steps.banking!.attempts.map((a) => [a.attempt, a.state])).toEqual([
    [1, 'needs_attention'],
    [2, 'completed'],
  ]);
  expect(outcome.steps[idv(c.personId)]!.attempts[1]).toMatchObject({
    requestedBecause: 'applicant asked for a new link',
  });
  expect(outcome.steps.affordability!.state).toBe('completed');

  const counted = ledger(c);
  expect(counted.creditReports).toBe(1);
  expect(counted.identityVerifications).toBe(2);
  expect(counted.connections).toHaveLength(2);
  // The second connection's event settled the step, not the replayed Rejected of the first.
  expect(counted.connections[1]).toBe(outcome.steps.banking!.providerIds.bank_connection_id);
  expect(counted.connections[0]).toBe(c.firstConnection);
});

test('waiveStep accepts a step as it stands, with the reason; a waiver without a reason is refused', async () => {
  const c = await caseNeedingAttention();
  await expect(
    c.handle.executeUpdate(waiveStepUpdate, { args: [{ step: 'banking', reason: ' ' }] }),
  ).rejects.toMatchObject({ cause: { message: expect.stringContaining('needs a reason') } });
  await c.handle.executeUpdate(waiveStepUpdate, { args: [{ step: idv(c.personId), reason: 'verified in branch' }] });
  await c.handle.executeUpdate(waiveStepUpdate, { args: [{ step: 'banking', reason: 'statements on paper' }] });
  // Affordability waits for a completed banking step: it is blocked until waived as well.
  const blocked = await waitForStatus(c.handle, journeyStatusQuery, (s) => s.steps.banking!.state === 'waived');
  expect(blocked).toMatchObject({
    state: 'needs_attention',
    steps: { affordability: { state: 'pending', reason: expect.stringContaining('waits for banking') } },
  });
  await c.handle.executeUpdate(waiveStepUpdate, {
    args: [{ step: 'affordability', reason: 'manual affordability check' }],
  });
  const outcome = await c.handle.result();
  expect(outcome.state).toBe('completed');
  expect(outcome.steps[idv(c.personId)]).toMatchObject({ state: 'waived', reason: 'waived: verified in branch' });
});

test('journey retry of a closed journey carries the credit report over (no provider call) and re-runs the rest', async () => {
  const c = await caseNeedingAttention();
  await c.handle.signal('cancel', { reason: 'closing for the night' });
  expect((await c.handle.result()).state).toBe('cancelled');

  const plan = await planJourneyRetry(ctx, c.caseId);
  expect(plan.carriedOver).toEqual(['credit-report']);
  expect(plan.rerun.map((r) => r.step).sort()).toEqual(['affordability', 'banking', idv(c.personId)].sort());
  expect(formatRetryPlan(plan)).toContain('carry over  credit-report');

  const creditCallsBefore = stack.simulator.store.requests.filter((r) =>
    r.path.startsWith('/v2/company-credit-reports'),
  ).length;
  const runId = await retryJourney(ctx, plan);
  const retried = stack.client.workflow.getHandle(`case/${c.caseId}`, runId);
  await applicantCompletesNewAttempts(retried, c.personId);
  const outcome = await retried.result();
  expect(outcome.state).toBe('completed');
  expect(outcome.steps['credit-report']!.attempts[0]).toMatchObject({ carriedOver: true, state: 'completed' });
  expect(stack.simulator.store.requests.filter((r) => r.path.startsWith('/v2/company-credit-reports')).length).toBe(
    creditCallsBefore,
  );
  const counted = ledger(c);
  expect(counted).toMatchObject({ creditReports: 1, identityVerifications: 2 });
  expect(counted.connections).toHaveLength(2);
});

test('a provider that fails every call of one step ends that step failed with its answer; the others complete', async () => {
  const ids = await newCase();
  // A 503 made nothing (a 500 might have: that one is looked for, operatorActions.test.ts), so
  // the call is sent again until the budget ends.
  await control('/faults', { method: 'POST', path: `/v2/cases/${ids.caseId}/income-employer`, status: 503, times: 50 });
  const handle = await start({
    caseId: ids.caseId,
    company: { company_id: ids.companyId },
    steps: { creditReport: true, incomeEmployer: true },
    deadlines: { providerCalls: '4 seconds' },
  });
  const attention = await waitForStatus(handle, journeyStatusQuery, (s) => s.operatorDeadline != null);
  expect(attention.state).toBe('needs_attention');
  expect(attention.steps['credit-report']!.state).toBe('completed');
  expect(attention.steps['income-employer']).toMatchObject({
    state: 'failed',
    reason: expect.stringContaining('Provider answered 503'),
    error: { status: 503 },
  });
  await handle.signal('cancel', {});
});

test('when the operator deadline runs out, the journey closes as needs_attention, saying so', async () => {
  const ids = await newCase();
  // The applicant never completes the check: the step expires, and nobody acts within the operator's 2 seconds.
  const handle = await start({
    caseId: ids.caseId,
    people: [{ personId: ids.personId }],
    steps: { identityVerification: true },
    deadlines: { identityVerification: '1 second', operatorDecision: '2 seconds' },
  });
  const attention = await waitForStatus(handle, journeyStatusQuery, (s) => s.operatorDeadline != null);
  expect(attention.state).toBe('needs_attention');
  const outcome = await handle.result();
  expect(outcome.state).toBe('needs_attention');
  expect(outcome.reasons).toContain('no operator decision within 2 seconds');
  expect(outcome.operatorDeadline).toBeNull();
  expect((await handle.describe()).status.name).toBe('COMPLETED');
});

test('a 404 on a result read right after its webhook is retried briefly, and the step completes', async () => {
  const ids = await newCase();
  const handle = await start({
    caseId: ids.caseId,
    people: [{ personId: ids.personId }],
    steps: { identityVerification: true },
  });
  const waiting = await waitForStatus(handle, journeyStatusQuery, waitingFor([idv(ids.personId)]));
  const requestId = waiting.steps[idv(ids.personId)]!.providerIds.request_id!;
  // The provider's read side lags its event.
  await control('/faults', { method: 'GET', path: `/v2/identity/${requestId}`, status: 404, times: 2 });
  await control(`/identity-verifications/${requestId}/complete`, { verification_status: 'Approved' });
  expect(await handle.result()).toMatchObject({ state: 'completed' });
  expect(
    stack.simulator.store.requests.filter((r) => r.path === `/v2/identity/${requestId}`).map((r) => r.status),
  ).toEqual([404, 404, 200]);
});

test('a native Temporal cancel ends the journey cancelled, and no provider call follows it', async () => {
  const ids = await newCase();
  const createPath = `/v2/persons/${ids.personId}/identity-verifications`;
  await control('/faults', { method: 'POST', path: createPath, status: 503, times: 200 });
  // A provider-call budget of 8 s: the create stopped by the cancel is asked again for its answer
  // for at most that long (providerActivities.ts, 30 s by default) before the journey closes.
  const handle = await start({
    caseId: ids.caseId,
    people: [{ personId: ids.personId }],
    steps: { identityVerification: true },
    deadlines: { providerCalls: '8 seconds' },
  });
  const creates = () => stack.simulator.store.requests.filter((r) => r.method === 'POST' && r.path === createPath);
  // The step's creation is being retried against a provider answering 503.
  await waitUntil('a second create attempt against the provider answering 503', () => creates().length >= 2);

  await handle.cancel();
  const failure = await handle.result().catch((e: unknown) => e);
  expect(failure).toBeInstanceOf(WorkflowFailedError);
  expect((failure as WorkflowFailedError).cause).toBeInstanceOf(CancelledFailure);
  const status = await handle.query(journeyStatusQuery);
  expect(status).toMatchObject({ state: 'cancelled', steps: { [idv(ids.personId)]: { state: 'cancelled' } } });
  // No window to wait out: a retry comes only from a workflow still open or an attempt still
  // running. The step's workflow is closed (Temporal dispatches nothing for it any more) and the
  // worker runs no activity, so the count of create calls is final.
  const step = stack.client.workflow.getHandle(status.steps[idv(ids.personId)]?.workflowId ?? '');
  await waitUntil(
    "the IDV step's workflow closing after the cancel",
    async () => (await step.describe()).status.name !== 'RUNNING',
  );
  await waitUntil(
    'the worker finishing every activity in flight',
    () => stack.worker.worker.getStatus().numInFlightActivities === 0,
  );
  const closedAt = (await step.describe()).closeTime?.getTime() ?? 0;
  expect(creates().filter((r) => r.at > closedAt)).toEqual([]);
});
