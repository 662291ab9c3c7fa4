/**
 * Operator actions never re-buy and never dead-end, and a provider outage needs no operator. One
 * test per way an action could re-buy or dead-end, each against the simulator's ledger (what the
 * provider made, with the Idempotency-Key it was made under) and the journey's `status`; each says
 * which wrong behaviour it catches.
 *
 * Faults on `POST /v2/company-credit-reports` (one route for every company) are scripted by the
 * tests that need them, one test at a time; the other routes carry the case or the person.
 */
import { Worker } from '@temporalio/worker';
import { dataConverterFor } from '../../codec/dataConverter';
import { randomUUID } from 'node:crypto';
import {
  WorkflowFailedError,
  WorkflowUpdateFailedError,
  WorkflowUpdateStage,
  type WorkflowHandle,
} from '@temporalio/client';
import { CancelledFailure } from '@temporalio/common';
import { temporal } from '@temporalio/proto';
import { startStack, type Stack } from '../../cli/stack';
import { startWorker, type RunningWorker } from '../../worker/createWorker';
import { waitForStatus } from '../../cli/watchStatus';
import type { CreditReportDetail } from '../../client/creditReportMessages';
import type { OnboardCaseInput } from '../../client/journeyInput';
import {
  journeyStatusQuery,
  resolveJourneyPicklistUpdate,
  retryStepUpdate,
  waiveStepUpdate,
  type JourneyStatus,
  type JourneyStep,
  type OnboardCaseWorkflow,
} from '../../client/journeyMessages';
import { cancelJourney, resolvePicklist, type JourneyReadContext } from '../../client/journeyOperations';
import { JourneyClosedError } from '../../client/journeyErrors';
import { planJourneyRetry, retryJourney } from '../../client/journeyRetry';
import { simulatorControl } from '../support/faultHarness/rawProviderApi';
import { testCaseFileOption, testDirectory, testTemporalConfig, testWorkflowBundle } from '../setup/testEnvironment';
import { startOnboardCase } from '../support/startOnboardCase';
import { waitUntil } from '../support/waitUntil';

jest.setTimeout(90_000);

let stack: Stack;
let ctx: JourneyReadContext;

beforeAll(async () => {
  stack = await startStack({
    temporal: testTemporalConfig(),
    caseFile: testCaseFileOption(),
    workflowBundle: testWorkflowBundle(),
    simulatorSeed: 2020,
    spoolDir: testDirectory('spool'),
    processingDelayMs: 20,
  });
  ctx = { client: stack.client, taskQueue: stack.temporal.taskQueue, readModel: stack.caseFile };
});

afterAll(async () => {
  await stack?.stop();
});

const control = (path: string, body?: unknown, method?: string) =>
  simulatorControl(stack.simulator)(path, body, method);
const CREDIT_REPORTS = '/v2/company-credit-reports';
const deadlines = {
  identityVerification: '60 seconds',
  banking: '60 seconds',
  affordability: '60 seconds',
  incomeEmployer: '60 seconds',
  picklist: '60 seconds',
  providerCalls: '60 seconds',
};

interface Case {
  caseId: string;
  companyId: string;
  personId: string;
}

/** A case, a company and a person of its own, so the ledger's filters count only this test's purchases. */
async function newCase(options: { ambiguous?: boolean } = {}): Promise<Case> {
  const caseId = (await control('/cases', { income_employer_outcome: 'Complete' })).case_id as string;
  const number = `OA${caseId.slice(0, 6)}`;
  const company = await control('/companies', {
    company_name: `Operator Actions ${number} Ltd`,
    company_number: number,
    country_code: 'GB',
    registry_copies: options.ambiguous ? 2 : 1,
  });
  const personId = (await control('/persons', {})).person_id as string;
  return { caseId, companyId: company.company_id as string, personId };
}

async function start(input: OnboardCaseInput): Promise<WorkflowHandle<OnboardCaseWorkflow>> {
  return startOnboardCase(stack.client, {
    taskQueue: stack.temporal.taskQueue,
    args: [{ ...input, deadlines: { ...deadlines, ...input.deadlines } }],
  });
}

interface Ledger {
  creditReports: { report_id: string; idempotency_key: string | null; status: string; picklist_resolutions: number }[];
  picklistResolutions: { report_id: string; provider_id: string; idempotency_key: string | null }[];
  identityVerifications: { request_id: string; idempotency_key: string | null; status: string }[];
  openBankingConnections: { bank_connection_id: string; idempotency_key: string | null; status: string }[];
  affordabilityInsights: unknown[];
}

/**
 * What the provider made for this case: its company's reports, its person's IDV requests, its
 * connections and insights.
 */
async function ledger(c: Case): Promise<Ledger> {
  const [byCompany, byPerson, byCase] = await Promise.all([
    control(`/ledger?company_id=${c.companyId}`),
    control(`/ledger?person_id=${c.personId}`),
    control(`/ledger?case_id=${c.caseId}`),
  ]);
  return {
    creditReports: byCompany.creditReports,
    picklistResolutions: byCompany.picklistResolutions,
    identityVerifications: byPerson.identityVerifications,
    openBankingConnections: byCase.openBankingConnections,
    affordabilityInsights: byCase.affordabilityInsights,
  };
}

/** The key of one creating call of a need (client/purchaseKey.ts). */
const keyOf = (c: Case, step: string, need: number, call: string) => `case/${c.caseId}/${step}/${need}/${call}`;

/** A report the simulator has made for the company, as soon as it made it (its answer may still be held back). */
const reportMadeFor = (c: Case) =>
  waitUntil('the credit report made by the provider', () =>
    [...stack.simulator.store.creditReports.values()].find((r) => r.company_id === c.companyId),
  );

/** Ends the scripted faults on a path: the provider is back. */
function endFaults(path: string): void {
  for (const fault of stack.simulator.store.faults) if (fault.path === path) fault.times = 0;
}

/** The validator's words for an action the journey refused; fails the test when it was accepted. */
async function refusal(update: Promise<unknown>): Promise<string> {
  const outcome = await update.then(
    (accepted) => ({ accepted }),
    (error: unknown) => ({ error }),
  );
  if ('accepted' in outcome)
    throw new Error(`the action was accepted: ${JSON.stringify(outcome.accepted).slice(0, 300)}`);
  expect(outcome.error).toBeInstanceOf(WorkflowUpdateFailedError);
  return (outcome.error as WorkflowUpdateFailedError).cause?.message ?? '';
}

const idv = (c: Case) => `identity-verification/${c.personId}`;
const picklistOf = (step: JourneyStep | undefined) => (step?.detail as CreditReportDetail | null)?.picklist ?? [];
const picklistWaiting = (s: JourneyStatus) =>
  s.steps['credit-report']?.state === 'waiting' && picklistOf(s.steps['credit-report']).length > 0;
const waitingWith = (step: JourneyStep | undefined, id: string, attempt = 1) =>
  step?.state === 'waiting' && step.attempt === attempt && Boolean(step.providerIds[id]);
/** The reasons line of a step. */
const reasonLine = (s: JourneyStatus, key: string) => s.reasons.find((r) => r.startsWith(`${key}: `));

test('a cancel while the credit report POST is in flight records the report it bought; journey retry continues that report and buys none', async () => {
  // Catches a cancel that aborts the POST: the provider makes the report, the cancelled journey's
  // status has no report_id, and journey retry buys a second report (ledger 2); and a retryStep
  // accepted during the cancel.
  const c = await newCase({ ambiguous: true });
  await control('/faults', { method: 'POST', path: CREDIT_REPORTS, latency_ms: 4_000 });
  const handle = await start({ caseId: c.caseId, company: { company_id: c.companyId }, steps: { creditReport: true } });
  const bought = await reportMadeFor(c);

  await cancelJourney(ctx, c.caseId, 'closing the case for the night');
  expect(await refusal(handle.executeUpdate(retryStepUpdate, { args: [{ step: 'credit-report' }] }))).toBe(
    'the journey is being cancelled (closing the case for the night); no further operator actions',
  );
  const cancelled = await handle.result();
  expect(cancelled.state).toBe('cancelled');
  expect(cancelled.steps['credit-report']).toMatchObject({
    state: 'cancelled',
    providerIds: { report_id: bought.report_id },
  });

  const plan = await planJourneyRetry(ctx, c.caseId);
  expect(plan.rerun.map((r) => r.step)).toEqual(['credit-report']);
  expect(plan.input.carryOver?.purchases['credit-report']).toMatchObject({
    need: 1,
    providerIds: { report_id: bought.report_id },
  });
  const retried = stack.client.workflow.getHandle<OnboardCaseWorkflow>(
    `case/${c.caseId}`,
    await retryJourney(ctx, plan),
  );
  // The new run reads the report the cancelled one bought and shows its picklist again.
  const waiting = await waitForStatus(retried, journeyStatusQuery, picklistWaiting);
  expect(waiting.steps['credit-report']).toMatchObject({
    attempt: 2,
    need: 1,
    providerIds: { report_id: bought.report_id },
  });
  const choice = picklistOf(waiting.steps['credit-report'])[1]!.provider_id;
  await retried.executeUpdate(resolveJourneyPicklistUpdate, { args: [{ providerId: choice }] });
  const outcome = await retried.result();
  expect(outcome).toMatchObject({
    state: 'completed',
    steps: { 'credit-report': { state: 'completed', providerIds: { report_id: bought.report_id } } },
  });

  const l = await ledger(c);
  expect(l.creditReports).toEqual([
    expect.objectContaining({
      report_id: bought.report_id,
      idempotency_key: keyOf(c, 'credit-report', 1, 'request'),
      status: 'Complete',
      picklist_resolutions: 1,
    }),
  ]);
  expect(l.picklistResolutions).toEqual([
    expect.objectContaining({ provider_id: choice, idempotency_key: keyOf(c, 'credit-report', 1, 'resolve') }),
  ]);
});

test('a waive while the credit report POST is in flight answers once the POST has, with the report in the step; a retry meanwhile is refused', async () => {
  // Catches a waive that aborts the POST and answers at once: the report made (and in the case
  // file) but missing from the waived step's providerIds; and an action on a step accepted while
  // another is under way.
  const c = await newCase();
  await control('/faults', { method: 'POST', path: CREDIT_REPORTS, latency_ms: 3_000 });
  const handle = await start({ caseId: c.caseId, company: { company_id: c.companyId }, steps: { creditReport: true } });
  const bought = await reportMadeFor(c);

  const waiving = await handle.startUpdate(waiveStepUpdate, {
    args: [{ step: 'credit-report', reason: 'report obtained by phone' }],
    waitForStage: WorkflowUpdateStage.ACCEPTED,
  });
  // The waive waits for the POST's answer; an action on the step meanwhile is refused.
  expect(await refusal(handle.executeUpdate(retryStepUpdate, { args: [{ step: 'credit-report' }] }))).toBe(
    'a waiveStep of credit-report is under way; send yours once it has answered, against the step as it then stands',
  );
  const waived = await waiving.result();
  expect(waived.status).toMatchObject({
    state: 'waived',
    reason: 'waived: report obtained by phone',
    providerIds: { report_id: bought.report_id },
  });
  const outcome = await handle.result();
  expect(outcome).toMatchObject({
    state: 'completed',
    steps: { 'credit-report': { state: 'waived', providerIds: { report_id: bought.report_id } } },
  });
  expect((await ledger(c)).creditReports).toEqual([
    expect.objectContaining({ report_id: bought.report_id, idempotency_key: keyOf(c, 'credit-report', 1, 'request') }),
  ]);
});

test('retryStep of an expired picklist resolves the picklist on the report already bought', async () => {
  // Catches a retry that buys a new report (ledger 1 -> 2), leaving the first unresolved.
  const c = await newCase({ ambiguous: true });
  const handle = await start({
    caseId: c.caseId,
    company: { company_id: c.companyId },
    steps: { creditReport: true },
    deadlines: { picklist: '2 seconds' },
  });
  const expired = await waitForStatus(handle, journeyStatusQuery, (s) => s.steps['credit-report']?.state === 'expired');
  const reportId = expired.steps['credit-report']!.providerIds.report_id!;
  expect(expired.state).toBe('needs_attention');

  await handle.executeUpdate(retryStepUpdate, { args: [{ step: 'credit-report', reason: 'the operator is back' }] });
  const again = await waitForStatus(handle, journeyStatusQuery, picklistWaiting);
  expect(again.steps['credit-report']!.providerIds.report_id).toBe(reportId);
  expect(again.steps['credit-report']).toMatchObject({ attempt: 2, need: 1 });
  const choice = picklistOf(again.steps['credit-report'])[0]!.provider_id;
  const resolved = await handle.executeUpdate(resolveJourneyPicklistUpdate, { args: [{ providerId: choice }] });
  expect(resolved.status).toMatchObject({ state: 'completed', providerIds: { report_id: reportId } });
  expect((await handle.result()).state).toBe('completed');

  const l = await ledger(c);
  expect(l.creditReports).toEqual([
    expect.objectContaining({ report_id: reportId, status: 'Complete', picklist_resolutions: 1 }),
  ]);
  expect(l.picklistResolutions).toEqual([expect.objectContaining({ report_id: reportId, provider_id: choice })]);
  // The expired step named the actions that moved it on.
  expect(expired.steps['credit-report']!.actions).toEqual(['retryStep credit-report', 'waiveStep credit-report']);
  expect(reasonLine(expired, 'credit-report')).toBe(
    'credit-report: expired (nobody resolved the picklist within 2 seconds): retryStep credit-report or waiveStep credit-report',
  );
});

test('a credit report whose lost POST had bought the report needs attention; retryStep looks again and buys no second', async () => {
  // Catches a new attempt that sends the call again: with keys ignored (the spec has none) the
  // provider would make a second report (ledger 2). A report cannot be found, so the step waits
  // for an operator, naming both actions, and a plain retry looks again instead of buying.
  const c = await newCase();
  await control('/faults', { method: 'POST', path: CREDIT_REPORTS, creation_answer_lost: true });
  const handle = await start({ caseId: c.caseId, company: { company_id: c.companyId }, steps: { creditReport: true } });
  const unknown = (s: JourneyStatus, attempt: number) =>
    s.steps['credit-report']?.attempt === attempt &&
    s.steps['credit-report']?.state === 'needs_attention' &&
    /^purchase outcome unknown since /.test(s.steps['credit-report']?.reason ?? '');
  const first = await waitForStatus(handle, journeyStatusQuery, (s) => unknown(s, 1));
  expect(first.state).toBe('needs_attention');
  expect(reasonLine(first, 'credit-report')).toMatch(
    /^credit-report: needs_attention \(purchase outcome unknown since .*\): retryStep credit-report or waiveStep credit-report$/,
  );
  const made = (await ledger(c)).creditReports;
  expect(made.map((r) => r.idempotency_key)).toEqual([keyOf(c, 'credit-report', 1, 'request')]);
  expect(first.steps['credit-report']!.providerIds.report_id).toBeUndefined();

  const retried = await handle.executeUpdate(retryStepUpdate, {
    args: [{ step: 'credit-report', reason: 'look again' }],
  });
  expect(retried.status.attempt).toBe(2);
  const again = await waitForStatus(handle, journeyStatusQuery, (s) => unknown(s, 2));
  expect(again.steps['credit-report']!.attempts.map((a) => [a.attempt, a.state, a.need])).toEqual([
    [1, 'needs_attention', 1],
    [2, 'needs_attention', 1],
  ]);
  expect((await ledger(c)).creditReports.map((r) => r.report_id)).toEqual(made.map((r) => r.report_id));
  await handle.executeUpdate(waiveStepUpdate, { args: [{ step: 'credit-report', reason: 'report on paper' }] });
  expect((await handle.result()).state).toBe('completed');
});

test('a journey reset through Temporal re-runs the credit report under the same key: no second report', async () => {
  // Catches keys that hold the step's run id: the reset's new child run would find no row in the
  // purchase ledger under its key, and the provider make a second report.
  const c = await newCase();
  const handle = await start({ caseId: c.caseId, company: { company_id: c.companyId }, steps: { creditReport: true } });
  const first = await handle.result();
  const reportId = first.steps['credit-report']!.providerIds.report_id;
  const postsBefore = stack.simulator.store.requests.filter(
    (r) => r.method === 'POST' && r.path === CREDIT_REPORTS,
  ).length;

  // The operator's reset from the Web UI: back to the first workflow task, before the step started.
  const history = await handle.fetchHistory();
  const firstTask = history.events?.find(
    (e) => e.eventType === temporal.api.enums.v1.EventType.EVENT_TYPE_WORKFLOW_TASK_COMPLETED,
  );
  const { runId } = await stack.client.workflowService.resetWorkflowExecution({
    namespace: stack.client.options.namespace,
    workflowExecution: { workflowId: handle.workflowId, runId: (await handle.describe()).runId },
    reason: 'operator reset from the first workflow task',
    workflowTaskFinishEventId: firstTask!.eventId,
    requestId: randomUUID(),
  });
  const reset = stack.client.workflow.getHandle<OnboardCaseWorkflow>(handle.workflowId, runId ?? undefined);
  const outcome = await reset.result();
  expect(outcome).toMatchObject({
    state: 'completed',
    steps: { 'credit-report': { state: 'completed', providerIds: { report_id: reportId } } },
  });
  // The reset run asked the provider nothing: the purchase ledger answered the report of the first.
  expect(stack.simulator.store.requests.filter((r) => r.method === 'POST' && r.path === CREDIT_REPORTS).length).toBe(
    postsBefore,
  );
  expect((await ledger(c)).creditReports).toEqual([
    expect.objectContaining({ report_id: reportId, idempotency_key: keyOf(c, 'credit-report', 1, 'request') }),
  ]);
});

test("a running journey reset while its picklist waits: the earlier run's attempt is stopped, this run's starts on the same report", async () => {
  // Catches an earlier run's step left running under the id the reset run's attempt needs: that
  // attempt would fail "Workflow execution already started".
  const c = await newCase({ ambiguous: true });
  const handle = await start({
    caseId: c.caseId,
    company: { company_id: c.companyId },
    steps: { creditReport: true },
    deadlines,
  });
  const waiting = await waitForStatus(handle, journeyStatusQuery, picklistWaiting);
  const reportId = waiting.steps['credit-report']!.providerIds.report_id;

  const history = await handle.fetchHistory();
  const firstTask = history.events?.find(
    (e) => e.eventType === temporal.api.enums.v1.EventType.EVENT_TYPE_WORKFLOW_TASK_COMPLETED,
  );
  const { runId } = await stack.client.workflowService.resetWorkflowExecution({
    namespace: stack.client.options.namespace,
    workflowExecution: { workflowId: handle.workflowId, runId: (await handle.describe()).runId },
    reason: 'operator reset while the picklist waits',
    workflowTaskFinishEventId: firstTask!.eventId,
    requestId: randomUUID(),
  });
  const reset = stack.client.workflow.getHandle<OnboardCaseWorkflow>(handle.workflowId, runId ?? undefined);
  const again = await waitForStatus(reset, journeyStatusQuery, picklistWaiting, 120_000);
  expect(again.steps['credit-report']!.providerIds.report_id).toBe(reportId);
  await reset.executeUpdate(resolveJourneyPicklistUpdate, {
    args: [{ providerId: picklistOf(again.steps['credit-report'])[0]!.provider_id }],
  });
  expect(await reset.result()).toMatchObject({
    state: 'completed',
    steps: { 'credit-report': { state: 'completed', providerIds: { report_id: reportId } } },
  });
  expect((await ledger(c)).creditReports).toHaveLength(1);
  // The reset run replays on the workflow code: its attempt, which found its child id taken by the
  // earlier run's orphan, stopped it and started once it had closed.
  const replayed = Worker.runReplayHistories(
    { workflowBundle: testWorkflowBundle(), dataConverter: dataConverterFor(stack.payloadKeys) },
    [{ workflowId: handle.workflowId, history: await reset.fetchHistory() }],
  );
  for await (const result of replayed) expect(result.error).toBeUndefined();
}, 180_000);

describe('no dead ends', () => {
  test('after waiveStep banking, affordability names retryStep banking and waiveStep affordability; retryStep banking continues the connection and the journey completes', async () => {
    // Catches affordability saying "retry banking, or waive both" while retryStep banking is
    // refused (banking being waived): a dead end.
    const c = await newCase();
    const handle = await start({ caseId: c.caseId, steps: { banking: 'open_banking', affordability: true } });
    const waiting = await waitForStatus(handle, journeyStatusQuery, (s) =>
      waitingWith(s.steps.banking, 'bank_connection_id'),
    );
    const connection = waiting.steps.banking!.providerIds.bank_connection_id;
    await handle.executeUpdate(waiveStepUpdate, { args: [{ step: 'banking', reason: 'statements on paper' }] });
    const blocked = await waitForStatus(
      handle,
      journeyStatusQuery,
      (s) => s.steps.affordability?.reason?.startsWith('waits for banking') === true,
    );

    const retried = await handle.executeUpdate(retryStepUpdate, {
      args: [{ step: 'banking', reason: 'the applicant will connect after all' }],
    });
    expect(retried.status).toMatchObject({ attempt: 2, need: 1 });
    const again = await waitForStatus(handle, journeyStatusQuery, (s) =>
      waitingWith(s.steps.banking, 'bank_connection_id', 2),
    );
    expect(again.steps.banking!.providerIds.bank_connection_id).toBe(connection);
    await control(`/open-banking-connections/${connection}/complete`, { status: 'Connected', accounts: 1 });
    const outcome = await handle.result();
    expect(outcome).toMatchObject({
      state: 'completed',
      steps: { banking: { state: 'completed' }, affordability: { state: 'completed' } },
    });
    const l = await ledger(c);
    expect(l.openBankingConnections).toEqual([
      expect.objectContaining({
        bank_connection_id: connection,
        idempotency_key: keyOf(c, 'banking', 1, 'connection'),
      }),
    ]);
    expect(l.affordabilityInsights).toHaveLength(1);
    // While banking stood waived, both steps named the way forward the journey accepted.
    expect(blocked.state).toBe('needs_attention');
    expect(blocked.steps.affordability).toMatchObject({
      state: 'pending',
      reason: 'waits for banking, which is waived',
      actions: ['retryStep banking', 'waiveStep affordability'],
    });
    expect(blocked.steps.banking!.actions).toEqual(['retryStep banking']);
    expect(reasonLine(blocked, 'affordability')).toBe(
      'affordability: pending (waits for banking, which is waived): retryStep banking or waiveStep affordability',
    );
  });

  test('a connection the applicant completed while banking stood waived settles the retried step at once', async () => {
    // The retried attempt continues the need (the same connection, by its key): the applicant's
    // Connected event, received before that attempt began, is the outcome it waits for. Catches a
    // retryStep refused on the waived step, and a retried attempt that drops events received
    // before it began and waits for its deadline.
    const c = await newCase();
    const handle = await start({ caseId: c.caseId, steps: { banking: 'open_banking', affordability: true } });
    const waiting = await waitForStatus(handle, journeyStatusQuery, (s) =>
      waitingWith(s.steps.banking, 'bank_connection_id'),
    );
    const connection = waiting.steps.banking!.providerIds.bank_connection_id;
    await handle.executeUpdate(waiveStepUpdate, { args: [{ step: 'banking', reason: 'statements on paper' }] });
    await control(`/open-banking-connections/${connection}/complete`, { status: 'Connected', accounts: 1 });
    // The event has reached the case's banking resource (no step was listening).
    await control('/settle', {});
    await waitUntil('the Connected event delivered', () =>
      stack.simulator.store.deliveries.some(
        (d) => d.event_type === 'OpenBankingProcessing.Completed' && d.outcome === 'delivered',
      ),
    );

    await handle.executeUpdate(retryStepUpdate, {
      args: [{ step: 'banking', reason: 'the applicant connected after all' }],
    });
    const outcome = await waitForStatus(
      handle,
      journeyStatusQuery,
      (s) =>
        s.state !== 'running' &&
        s.steps.banking?.attempt === 2 &&
        !['pending', 'running', 'waiting'].includes(s.steps.banking.state),
      20_000,
    );
    expect(outcome).toMatchObject({
      state: 'completed',
      steps: {
        banking: { state: 'completed', attempt: 2, providerIds: { bank_connection_id: connection } },
        affordability: { state: 'completed' },
      },
    });
    expect((await ledger(c)).openBankingConnections.map((b) => b.bank_connection_id)).toEqual([connection]);
  });

  test('a waiting IDV step can be retried: the new attempt keeps the request the applicant was sent', async () => {
    // Catches retryStep refused on a waiting step (leaving only waive, or cancel and journey
    // retry, which would leave the person two Pending requests).
    const c = await newCase();
    const handle = await start({
      caseId: c.caseId,
      people: [{ personId: c.personId }],
      steps: { identityVerification: true },
    });
    const waiting = await waitForStatus(handle, journeyStatusQuery, (s) => waitingWith(s.steps[idv(c)], 'request_id'));
    const requestId = waiting.steps[idv(c)]!.providerIds.request_id;

    const retried = await handle.executeUpdate(retryStepUpdate, {
      args: [{ step: idv(c), reason: 'the applicant lost the link' }],
    });
    expect(retried.status).toMatchObject({ attempt: 2, need: 1 });
    const again = await waitForStatus(handle, journeyStatusQuery, (s) => waitingWith(s.steps[idv(c)], 'request_id', 2));
    expect(again.steps[idv(c)]!.providerIds.request_id).toBe(requestId);
    expect(again.steps[idv(c)]!.attempts.map((a) => [a.attempt, a.state, a.need])).toEqual([
      [1, 'cancelled', 1],
      [2, 'waiting', 1],
    ]);
    await control(`/identity-verifications/${requestId}/complete`, { verification_status: 'Approved' });
    expect((await handle.result()).state).toBe('completed');
    expect((await ledger(c)).identityVerifications).toEqual([
      expect.objectContaining({
        request_id: requestId,
        status: 'Completed',
        idempotency_key: keyOf(c, idv(c), 1, 'request'),
      }),
    ]);
    expect(waiting.steps[idv(c)]!.actions).toEqual([`retryStep ${idv(c)}`, `waiveStep ${idv(c)}`]);
  });

  test('an IDV step that expired while its request is still open at the provider is retried on that request: no second request', async () => {
    // The journey's deadline ran out before the provider's link did: the request is still Pending,
    // so the person can still use the link they were sent, and a retry adopts it.
    const c = await newCase();
    const handle = await start({
      caseId: c.caseId,
      people: [{ personId: c.personId }],
      steps: { identityVerification: true },
      deadlines: { identityVerification: '2 seconds' },
    });
    const expired = await waitForStatus(handle, journeyStatusQuery, (s) => s.steps[idv(c)]?.state === 'expired');
    const requestId = expired.steps[idv(c)]!.providerIds.request_id;
    expect(requestId).toEqual(expect.any(String));
    expect((await ledger(c)).identityVerifications).toEqual([
      expect.objectContaining({ request_id: requestId, status: 'Pending' }),
    ]);

    const retried = await handle.executeUpdate(retryStepUpdate, {
      args: [{ step: idv(c), reason: 'the applicant will finish today' }],
    });
    expect(retried.status).toMatchObject({ attempt: 2, need: 1 });
    await control(`/identity-verifications/${requestId}/complete`, { verification_status: 'Approved' });
    const done = await handle.result();
    expect(done.steps[idv(c)]).toMatchObject({
      state: 'completed',
      attempt: 2,
      providerIds: { request_id: requestId },
    });
    expect((await ledger(c)).identityVerifications).toEqual([
      expect.objectContaining({
        request_id: requestId,
        status: 'Completed',
        idempotency_key: keyOf(c, idv(c), 1, 'request'),
      }),
    ]);
  });

  test('retryStep with fresh buys a new IDV request, recorded as such; the link sent first still settles the step', async () => {
    // A waiting step can be retried, and `fresh` buys anew.
    const c = await newCase();
    const handle = await start({
      caseId: c.caseId,
      people: [{ personId: c.personId }],
      steps: { identityVerification: true },
    });
    const waiting = await waitForStatus(handle, journeyStatusQuery, (s) => waitingWith(s.steps[idv(c)], 'request_id'));
    const first = waiting.steps[idv(c)]!.providerIds.request_id!;
    const retried = await handle.executeUpdate(retryStepUpdate, { args: [{ step: idv(c), fresh: true }] });
    expect(retried.status).toMatchObject({ attempt: 2, need: 2 });
    const again = await waitForStatus(handle, journeyStatusQuery, (s) => waitingWith(s.steps[idv(c)], 'request_id', 2));
    const second = again.steps[idv(c)]!.providerIds.request_id!;
    expect(second).not.toBe(first);
    expect(again.steps[idv(c)]!.attempts[1]).toMatchObject({
      need: 2,
      fresh: true,
      requestedBecause: 'retried by an operator, with a fresh purchase',
    });
    expect((await ledger(c)).identityVerifications.map((r) => [r.request_id, r.idempotency_key])).toEqual([
      [first, keyOf(c, idv(c), 1, 'request')],
      [second, keyOf(c, idv(c), 2, 'request')],
    ]);
    // The applicant uses the first link they were sent.
    await control(`/identity-verifications/${first}/complete`, { verification_status: 'Approved' });
    expect(await handle.result()).toMatchObject({
      state: 'completed',
      steps: { [idv(c)]: { state: 'completed', attempt: 2, providerIds: { request_id: first } } },
    });
  });

  test('journey retry of a closed journey whose banking was waived and affordability unsettled reruns banking instead of carrying it', async () => {
    // Catches journey retry carrying the waived banking over, which would block affordability
    // behind it again.
    const c = await newCase();
    const handle = await start({ caseId: c.caseId, steps: { banking: 'open_banking', affordability: true } });
    const waiting = await waitForStatus(handle, journeyStatusQuery, (s) =>
      waitingWith(s.steps.banking, 'bank_connection_id'),
    );
    const connection = waiting.steps.banking!.providerIds.bank_connection_id;
    await handle.executeUpdate(waiveStepUpdate, { args: [{ step: 'banking', reason: 'statements on paper' }] });
    await cancelJourney(ctx, c.caseId, 'the statements never came');
    expect((await handle.result()).state).toBe('cancelled');

    const plan = await planJourneyRetry(ctx, c.caseId);
    expect(plan.carriedOver).toEqual([]);
    expect(plan.rerun.map((r) => [r.step, r.was])).toEqual([
      ['banking', 'waived'],
      ['affordability', 'cancelled'],
    ]);
    const retried = stack.client.workflow.getHandle<OnboardCaseWorkflow>(
      `case/${c.caseId}`,
      await retryJourney(ctx, plan),
    );
    const again = await waitForStatus(retried, journeyStatusQuery, (s) =>
      waitingWith(s.steps.banking, 'bank_connection_id', 2),
    );
    expect(again.steps.banking!.providerIds.bank_connection_id).toBe(connection);
    await control(`/open-banking-connections/${connection}/complete`, { status: 'Connected', accounts: 1 });
    expect(await retried.result()).toMatchObject({
      state: 'completed',
      steps: { banking: { state: 'completed' }, affordability: { state: 'completed' } },
    });
    expect((await ledger(c)).openBankingConnections.map((b) => b.bank_connection_id)).toEqual([connection]);
  });
});

test('two resolvePicklist Updates sent together: one is taken, the other refused; the same Update id twice acts once', async () => {
  // Catches both Updates answered as successful with one choice silently dropped.
  const [together, repeated] = await Promise.all([newCase({ ambiguous: true }), newCase({ ambiguous: true })]);
  // IDV keeps each journey open (waiting for the applicant) once its picklist is resolved.
  const handles = await Promise.all(
    [together, repeated].map((c) =>
      start({
        caseId: c.caseId,
        company: { company_id: c.companyId },
        people: [{ personId: c.personId }],
        steps: { creditReport: true, identityVerification: true },
      }),
    ),
  );
  const [first, second] = await Promise.all(handles.map((h) => waitForStatus(h, journeyStatusQuery, picklistWaiting)));

  const [a, b] = picklistOf(first!.steps['credit-report']).map((e) => e.provider_id) as [string, string];
  const answers = await Promise.allSettled(
    [a, b].map((providerId) => handles[0]!.executeUpdate(resolveJourneyPicklistUpdate, { args: [{ providerId }] })),
  );
  const taken = answers.flatMap((answer, i) => (answer.status === 'fulfilled' ? [[a, b][i]] : []));
  const refused = answers.flatMap((answer) => (answer.status === 'rejected' ? [answer.reason as unknown] : []));
  expect(taken).toHaveLength(1);
  expect(refused).toHaveLength(1);
  expect(refused[0]).toBeInstanceOf(WorkflowUpdateFailedError);
  expect((refused[0] as WorkflowUpdateFailedError).cause?.message).toMatch(
    /^(a resolvePicklist of credit-report is under way|credit-report is completed; there is no picklist waiting)/,
  );
  const l = await ledger(together);
  expect(l.picklistResolutions.map((r) => r.provider_id)).toEqual(taken);

  // A client retrying a request that timed out sends the same Update id: answered once, the first result.
  const choice = picklistOf(second!.steps['credit-report'])[0]!.provider_id;
  const twice = await Promise.all(
    [0, 1].map(() => resolvePicklist(ctx, repeated.caseId, choice, { updateId: 'operator-request-7' })),
  );
  expect(twice[1]).toEqual(twice[0]);
  expect(twice[0]!.status).toMatchObject({ state: 'completed' });
  expect(await resolvePicklist(ctx, repeated.caseId, choice, { updateId: 'operator-request-7' })).toEqual(twice[0]);
  expect(await refusal(resolvePicklist(ctx, repeated.caseId, choice, { updateId: 'operator-request-8' }))).toBe(
    'credit-report is completed; there is no picklist waiting to be resolved',
  );
  expect((await ledger(repeated)).picklistResolutions).toHaveLength(1);
  await Promise.all(handles.map((h) => h.signal('cancel', { reason: 'test done' })));
});

test('a journey that closes between the look and the action is refused as closed, by name, not as an unknown case', async () => {
  // The journey writes its final state to the read model just before it closes: a caller that saw
  // it closing there acts in that moment, its describe says RUNNING and its Update then meets a
  // closed workflow (Temporal's "not found"), which must not come out as 404 "No case …".
  const c = await newCase({ ambiguous: true });
  const handle = await start({ caseId: c.caseId, company: { company_id: c.companyId }, steps: { creditReport: true } });
  const waiting = await waitForStatus(handle, journeyStatusQuery, picklistWaiting);
  const choice = picklistOf(waiting.steps['credit-report'])[0]!.provider_id;
  const service = stack.client.workflowService;
  const describe = service.describeWorkflowExecution.bind(service);
  const spy = jest.spyOn(service, 'describeWorkflowExecution').mockImplementationOnce(async (request) => {
    const seenRunning = await describe(request);
    await handle.signal('cancel', { reason: 'closing meanwhile' });
    await handle.result();
    return seenRunning;
  });
  try {
    const refused = await resolvePicklist(ctx, c.caseId, choice).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(JourneyClosedError);
    expect((refused as Error).message).toBe(
      `case/${c.caseId} is cancelled; operator actions need a running journey (journey retry starts a new run)`,
    );
  } finally {
    spy.mockRestore();
  }
  expect((await ledger(c)).picklistResolutions).toEqual([]);
});

test('after a native cancel, retryStep is refused while the journey closes (it waits for a creating call in flight)', async () => {
  // Catches a native cancel that sets no cancel reason: retryStep would be accepted while the
  // journey closes, and its handler wait for a condition that can never hold.
  const c = await newCase();
  const connections = `/v2/cases/${c.caseId}/open-banking-connections`;
  await control('/faults', { method: 'POST', path: connections, latency_ms: 6_000 });
  const handle = await start({
    caseId: c.caseId,
    people: [{ personId: c.personId }],
    steps: { identityVerification: true, banking: 'open_banking' },
    deadlines: { identityVerification: '1 second' },
  });
  await waitForStatus(handle, journeyStatusQuery, (s) => s.steps[idv(c)]?.state === 'expired');
  // Banking's connection is made; its answer is still held back.
  const made = await waitUntil('the connection made by the provider', () =>
    [...stack.simulator.store.openBankingConnections.values()].find((b) => b.entity_id === c.caseId),
  );
  expect(stack.simulator.store.requests.some((r) => r.path === connections)).toBe(false);

  await handle.cancel();
  // The Update is sent once the journey has taken the cancel in (the next test sends both together).
  await waitUntil('the journey taking the cancel in', () => cancelTakenIn(handle));
  expect(await refusal(handle.executeUpdate(retryStepUpdate, { args: [{ step: idv(c) }] }))).toBe(
    'the journey is being cancelled (cancelled through Temporal); no further operator actions',
  );
  const failure = await handle.result().catch((e: unknown) => e);
  expect(failure).toBeInstanceOf(WorkflowFailedError);
  expect((failure as WorkflowFailedError).cause).toBeInstanceOf(CancelledFailure);
  const closed = await handle.query(journeyStatusQuery);
  expect(closed).toMatchObject({
    state: 'cancelled',
    steps: {
      [idv(c)]: { state: 'expired' },
      banking: { state: 'cancelled', providerIds: { bank_connection_id: made.bank_connection_id } },
    },
  });
  expect((await ledger(c)).openBankingConnections.map((b) => b.bank_connection_id)).toEqual([made.bank_connection_id]);
});

test("a retryStep delivered in the same workflow task as a native cancel answers with the journey's refusal and buys nothing", async () => {
  // The SDK applies an Update before a cancel that arrives in the same task, so the validator
  // passes; the accepted retry must then answer with the journey's refusal, not the bare "Workflow
  // cancelled" (a race a randomized run meets under load). Both messages reach the worker together: it is stopped
  // while they are sent, and started again once the Update is admitted.
  const ownQueue = { ...stack.temporal, taskQueue: `cancel-race-${randomUUID()}` };
  const setup = {
    temporal: ownQueue,
    provider: stack.provider.config,
    caseFile: stack.caseFile,
    workflowBundle: testWorkflowBundle(),
    payloadKeys: stack.payloadKeys,
  };
  const first = await startWorker(setup);
  let second: RunningWorker | undefined;
  try {
    const c = await newCase();
    const handle = await startOnboardCase(stack.client, {
      taskQueue: ownQueue.taskQueue,
      args: [
        {
          caseId: c.caseId,
          people: [{ personId: c.personId }],
          steps: { identityVerification: true },
          deadlines: { ...deadlines, identityVerification: '1 second' },
        },
      ],
    });
    await waitForStatus(
      handle,
      journeyStatusQuery,
      (s) => s.steps[idv(c)]?.state === 'expired' && s.state === 'needs_attention',
    );
    await first.stop();

    await handle.cancel();
    const updateId = `cancel-race-${randomUUID()}`;
    const retried = refusal(handle.executeUpdate(retryStepUpdate, { args: [{ step: idv(c) }], updateId }));
    await waitUntil('the retryStep admitted by the server', () => updateAdmitted(handle.workflowId, updateId));
    second = await startWorker(setup);

    expect(await retried).toBe(
      'the journey is being cancelled (cancelled through Temporal); no further operator actions',
    );
    const failure = await handle.result().catch((e: unknown) => e);
    expect((failure as WorkflowFailedError).cause).toBeInstanceOf(CancelledFailure);
    expect((await handle.query(journeyStatusQuery)).state).toBe('cancelled');
    expect((await ledger(c)).identityVerifications).toHaveLength(1);
  } finally {
    await first.stop().catch(() => undefined);
    await second?.stop();
  }
});

/** Whether a workflow task has completed since the cancel was requested: the journey has seen it. */
async function cancelTakenIn(handle: WorkflowHandle): Promise<boolean> {
  const { EventType } = temporal.api.enums.v1;
  const events = (await handle.fetchHistory()).events ?? [];
  const requested = events.findIndex((e) => e.eventType === EventType.EVENT_TYPE_WORKFLOW_EXECUTION_CANCEL_REQUESTED);
  return (
    requested >= 0 && events.slice(requested).some((e) => e.eventType === EventType.EVENT_TYPE_WORKFLOW_TASK_COMPLETED)
  );
}

/** Whether the server holds the Update (admitted, waiting for a worker): a poll for that stage answers at once. */
async function updateAdmitted(workflowId: string, updateId: string): Promise<boolean> {
  const admitted =
    temporal.api.enums.v1.UpdateWorkflowExecutionLifecycleStage.UPDATE_WORKFLOW_EXECUTION_LIFECYCLE_STAGE_ADMITTED;
  await stack.client.workflowService.pollWorkflowExecutionUpdate({
    namespace: stack.temporal.namespace,
    updateRef: { workflowExecution: { workflowId }, updateId },
    identity: 'operator-actions-test',
    waitPolicy: { lifecycleStage: admitted },
  });
  return true;
}

test('a provider outage shorter than the call budget: the step waits, saying so, then carries on with no operator and one purchase', async () => {
  // Catches a step told nothing of the outage: it would show `running` throughout (and, past the
  // call budget, `failed`, one operator retry per case).
  const c = await newCase();
  const create = `/v2/persons/${c.personId}/identity-verifications`;
  await control('/faults', { method: 'POST', path: create, status: 503, times: 1_000 });
  const handle = await start({
    caseId: c.caseId,
    people: [{ personId: c.personId }],
    steps: { identityVerification: true },
    deadlines: { providerCalls: '1 minute' },
  });
  const answered503 = () =>
    stack.simulator.store.requests.filter((r) => r.method === 'POST' && r.path === create && r.status === 503).length;
  await waitUntil('the provider answering 503 to the create call', () => answered503() >= 1);
  const outage = await waitForStatus(handle, journeyStatusQuery, (s) => s.steps[idv(c)]?.state === 'waiting', 10_000);
  expect(outage.steps[idv(c)]).toMatchObject({
    reason: expect.stringMatching(/^provider unavailable since \d{4}-\d\d-\d\dT[\d:.]+Z; its last answer: .*503/),
    error: { status: 503 },
  });
  expect(outage.steps[idv(c)]!.providerIds.request_id).toBeUndefined();
  // The journey waits for the provider, not for an operator.
  expect(outage.state).toBe('running');
  expect(reasonLine(outage, idv(c))).toBe(`${idv(c)}: waiting (${outage.steps[idv(c)]!.reason})`);

  endFaults(create);
  const asked = await waitForStatus(handle, journeyStatusQuery, (s) => waitingWith(s.steps[idv(c)], 'request_id'));
  expect(asked.steps[idv(c)]).toMatchObject({
    attempt: 1,
    reason: null,
    error: null,
    links: { identity_link: expect.stringContaining('https://') },
  });
  expect(asked.state).toBe('running');
  const requestId = asked.steps[idv(c)]!.providerIds.request_id;
  await control(`/identity-verifications/${requestId}/complete`, { verification_status: 'Approved' });
  const outcome = await handle.result();
  expect(outcome).toMatchObject({ state: 'completed', steps: { [idv(c)]: { state: 'completed', attempt: 1 } } });
  expect(
    stack.simulator.store.requests.filter((r) => r.method === 'POST' && r.path === create && r.status === 201),
  ).toHaveLength(1);
  expect((await ledger(c)).identityVerifications).toEqual([
    expect.objectContaining({ request_id: requestId, idempotency_key: keyOf(c, idv(c), 1, 'request') }),
  ]);
});
