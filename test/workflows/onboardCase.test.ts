/**
 * The onboarding journey and its steps on a real dev server, with the simulator, bridge and worker
 * over real HTTP; timers in seconds.
 */
import type { Company } from '../../simulator/store';
import { randomUUID } from 'node:crypto';
import type { WorkflowHandle } from '@temporalio/client';
import { WorkflowNotFoundError } from '@temporalio/client';
import { JourneyInputError } from '../../client/journeyErrors';
import { startJourney as startCaseJourney } from '../../client/journeyOperations';
import { startStack, type Stack } from '../../cli/stack';
import { waitForStatus } from '../../cli/watchStatus';
import { startWorker } from '../../worker/createWorker';
import type { OnboardCaseInput } from '../../client/journeyInput';
import {
  cancelJourneySignal,
  journeyStatusQuery,
  type JourneyStatus,
  type OnboardCaseWorkflow,
} from '../../client/journeyMessages';
import type { StepStatus } from '../../client/stepMessages';
import { testDirectory, testTemporalConfig, testWorkflowBundle, testCaseFileOption } from '../setup/testEnvironment';
import { simulatorControl } from '../support/faultHarness/rawProviderApi';
import { startOnboardCase } from '../support/startOnboardCase';
import { waitUntil } from '../support/waitUntil';
import { storedDocument } from '../support/storedDocument';

let stack: Stack;
const replacementWorkers: Awaited<ReturnType<typeof startWorker>>[] = [];

beforeAll(async () => {
  stack = await startStack({
    temporal: testTemporalConfig(),
    caseFile: testCaseFileOption(),
    workflowBundle: testWorkflowBundle(),
    simulatorSeed: 21,
    spoolDir: testDirectory('spool'),
    processingDelayMs: 50,
  });
});

afterAll(async () => {
  for (const worker of replacementWorkers) await worker.stop().catch(() => undefined);
  await stack?.stop();
});

const control = (path: string, body?: unknown, method?: string) =>
  simulatorControl(stack.simulator)(path, body, method);

const newCase = (scenario: Record<string, unknown> = {}) =>
  control('/cases', scenario).then((c) => c.case_id as string);
const newPerson = () => control('/persons', {}).then((p) => p.person_id as string);
const company = async (name: string) =>
  ((await control('/companies')) as Company[]).find((c) => c.company_name === name)!;
const fast = {
  identityVerification: '20 seconds',
  banking: '20 seconds',
  documents: '20 seconds',
  affordability: '20 seconds',
  incomeEmployer: '20 seconds',
  picklist: '20 seconds',
};

async function startJourney(
  input: Omit<OnboardCaseInput, 'caseId'> & { caseId?: string },
): Promise<WorkflowHandle<OnboardCaseWorkflow>> {
  const caseId = input.caseId ?? (await newCase());
  return startOnboardCase(stack.client, {
    workflowId: `case/${caseId}`,
    taskQueue: stack.temporal.taskQueue,
    args: [{ ...input, caseId, deadlines: { ...fast, ...input.deadlines } }],
  });
}

/** The workflow ids a visibility query lists, once it lists `count` (visibility lags a little). */
function listedUntil(query: string, count: number, timeoutMs = 10_000): Promise<string[]> {
  return waitUntil(
    `${count} workflows listed for ${query}`,
    async () => {
      const ids: string[] = [];
      for await (const w of stack.client.workflow.list({ query })) ids.push(w.workflowId);
      return ids.length >= count ? ids : undefined;
    },
    { timeoutMs, intervalMs: 100 },
  );
}

const step = (key: string, predicate: (s: StepStatus) => boolean) => (s: JourneyStatus) =>
  Boolean(s.steps[key] && predicate(s.steps[key]!));

describe('onboardCase', () => {
  test('every step of a case completes, affordability after banking, and status shows each stage', async () => {
    const caseId = await newCase({ income_employer_outcome: 'Complete' });
    const acme = await company('Acme Widgets Ltd');
    const [alice, bob] = [await newPerson(), await newPerson()];
    const payslip = await stack.caseFile.putDocument({ caseId, fileName: 'p.pdf', content: Buffer.from('PAYSLIP') });
    const handle = await startJourney({
      caseId,
      company: { company_id: acme.company_id },
      people: [{ personId: alice }, { personId: bob }],
      steps: {
        creditReport: true,
        identityVerification: true,
        banking: 'open_banking',
        documents: [{ document_id: payslip.document_id, file_name: 'p.pdf' }],
        affordability: true,
        incomeEmployer: true,
      },
    });
    const first = await handle.query(journeyStatusQuery);
    expect(Object.keys(first.steps).sort()).toEqual(
      [
        'affordability',
        'banking',
        'credit-report',
        'documents',
        `identity-verification/${alice}`,
        `identity-verification/${bob}`,
        'income-employer',
      ].sort(),
    );
    expect(first.steps.affordability!.state).toBe('pending');

    const waiting = await waitForStatus(
      handle,
      journeyStatusQuery,
      (s) =>
        [alice, bob].every((p) => s.steps[`identity-verification/${p}`]?.state === 'waiting') &&
        s.steps.banking?.state === 'waiting',
    );
    expect(waiting.state).toBe('running');
    expect(waiting.steps.affordability!.state).toBe('pending');
    for (const p of [alice, bob]) {
      await control(
        `/identity-verifications/${waiting.steps[`identity-verification/${p}`]!.providerIds.request_id}/complete`,
        { verification_status: 'Approved' },
      );
    }
    await control(`/open-banking-connections/${waiting.steps.banking!.providerIds.bank_connection_id}/complete`, {
      status: 'Connected',
      accounts: 2,
    });

    const outcome = await handle.result();
    expect(outcome.reasons).toEqual([]);
    expect(outcome.state).toBe('completed');
    // The steps keep summaries; the provider's data is in the case file, under each step attempt.
    const bankingSummary = expect.objectContaining({
      transactions: 6,
      account_number_masked: expect.stringMatching(/^\*{4}\d{4}$/),
      case_file: expect.objectContaining({ attempt_id: `case/${caseId}/banking` }),
    });
    expect(outcome.steps.banking!.detail).toMatchObject({ accounts: [bankingSummary, bankingSummary] });
    expect(await stack.caseFile.counts(caseId)).toMatchObject({
      credit_reports: 1,
      idv_results: 2,
      bank_accounts: 2,
      bank_transactions: 12,
      affordability_insights: 1,
      affordability_transactions: 12,
      income_employer_results: 1,
      provider_documents: 1,
      documents: 1,
    });
    const evidence = await stack.caseFile.evidence(caseId);
    expect(evidence.idvResults.map((r) => r.attempt_id).sort()).toEqual(
      [`case/${caseId}/identity-verification/${alice}`, `case/${caseId}/identity-verification/${bob}`].sort(),
    );
    expect(evidence.providerDocuments).toEqual([
      expect.objectContaining({ document_id: payslip.document_id, attempt_id: `case/${caseId}/documents` }),
    ]);
    expect(outcome.steps.affordability).toMatchObject({
      state: 'completed',
      detail: { monthly_income: expect.any(Number) },
    });
    expect(outcome.steps['income-employer']).toMatchObject({
      state: 'completed',
      detail: { employer_name: expect.any(String) },
    });
    expect(outcome.steps['credit-report']).toMatchObject({ state: 'completed', detail: { resolvedBy: 'provider' } });

    // Visibility lags the close a little (a random-order run listed nothing right after it).
    expect(await listedUntil(`CaseId = "${caseId}" AND JourneyState = "completed"`, 1)).toEqual([`case/${caseId}`]);
  });

  test('failures become needs_attention with reasons; affordability does not start when banking did not complete', async () => {
    const caseId = await newCase({ income_employer_outcome: 'Failed' });
    const nonumber = await company('Nonumber Trading Ltd');
    const handle = await startJourney({
      caseId,
      company: { company_id: nonumber.company_id },
      steps: {
        creditReport: true,
        banking: 'open_banking',
        affordability: true,
        incomeEmployer: true,
        documents: [await storedDocument(stack.caseFile, caseId, 'blur.jpg', '???')],
      },
    });
    const waiting = await waitForStatus(
      handle,
      journeyStatusQuery,
      step('banking', (s) => s.state === 'waiting'),
    );
    await control(`/open-banking-connections/${waiting.steps.banking!.providerIds.bank_connection_id}/complete`, {
      status: 'Rejected',
    });
    // The journey stays open for an operator once nothing runs any more.
    const outcome = await waitForStatus(handle, journeyStatusQuery, (s) => s.operatorDeadline != null);
    expect(outcome.state).toBe('needs_attention');
    expect((await handle.describe()).status.name).toBe('RUNNING');
    expect(outcome.steps['credit-report']).toMatchObject({
      state: 'needs_attention',
      reason: expect.stringContaining('company_number'),
      error: { status: 422 },
    });
    expect(outcome.steps.banking).toMatchObject({
      state: 'needs_attention',
      reason: expect.stringContaining('rejected'),
    });
    expect(outcome.steps.affordability).toMatchObject({
      state: 'pending',
      reason: expect.stringContaining('waits for banking'),
    });
    expect(outcome.steps['income-employer']).toMatchObject({
      state: 'needs_attention',
      detail: { failure_detail: expect.stringMatching(/.+/) },
    });
    expect(outcome.steps.documents).toMatchObject({
      state: 'needs_attention',
      detail: {
        documents: [
          expect.objectContaining({
            status: 'Failed',
            document_endpoint: expect.stringContaining('/v2/documents/'),
            message: expect.stringMatching(/.+/),
          }),
        ],
      },
    });
    expect(outcome.reasons).toHaveLength(5);
    expect(await listedUntil(`CaseId = "${caseId}" AND JourneyState = "needs_attention"`, 1)).toEqual([
      `case/${caseId}`,
    ]);
    await handle.signal(cancelJourneySignal, { reason: 'test over' });
    expect(await handle.result()).toMatchObject({ state: 'cancelled' });
  });

  test('invalid input is refused at the boundary, naming the fields, and starts nothing', async () => {
    const caseId = `invalid-${randomUUID()}`;
    const refused = startCaseJourney(
      { client: stack.client, taskQueue: stack.temporal.taskQueue },
      { caseId, steps: { creditReport: true, affordability: true } },
    );
    await expect(refused).rejects.toBeInstanceOf(JourneyInputError);
    await expect(refused).rejects.toMatchObject({
      problems: [expect.stringMatching(/^company: /), expect.stringMatching(/^steps\.banking: /)],
    });
    await expect(stack.client.workflow.getHandle(`case/${caseId}`).describe()).rejects.toBeInstanceOf(
      WorkflowNotFoundError,
    );
  });

  test('a journey survives a worker restart in the middle of a step, with the same outcome', async () => {
    // A worker of its own on a task queue of its own: the suite's worker keeps serving the other
    // tests, whatever order they run in.
    const temporal = { ...stack.temporal, taskQueue: `worker-restart-${randomUUID()}` };
    const setup = {
      temporal,
      provider: stack.provider.config,
      caseFile: stack.caseFile,
      workflowBundle: testWorkflowBundle(),
    };
    const first = await startWorker(setup);
    replacementWorkers.push(first);
    const caseId = await newCase();
    const handle = await startOnboardCase(stack.client, {
      workflowId: `case/${caseId}`,
      taskQueue: temporal.taskQueue,
      args: [
        { caseId, people: [{ personId: await newPerson() }], steps: { identityVerification: true }, deadlines: fast },
      ],
    });
    const waiting = await waitForStatus(
      handle,
      journeyStatusQuery,
      (s) => Object.values(s.steps)[0]?.state === 'waiting',
    );
    await first.stop();
    const replacement = await startWorker(setup);
    replacementWorkers.push(replacement);
    await control(`/identity-verifications/${Object.values(waiting.steps)[0]!.providerIds.request_id}/complete`, {
      verification_status: 'Approved',
    });
    const outcome = await handle.result();
    expect(outcome.state).toBe('completed');
    expect(Object.values(outcome.steps)[0]).toMatchObject({
      state: 'completed',
      detail: { verificationStatus: 'Approved' },
    });
  });
});
