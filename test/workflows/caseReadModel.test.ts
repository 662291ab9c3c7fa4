/**
 * The journey writes its state into the case file's read model at every change, and
 * cases are read there: `GET /v1/cases/{id}`, the list with its filters, and `journey status` of a
 * closed case answer with no `status` query and no `describe` (counted on the client's own
 * workflow service, which every read of the API and of the CLI's code goes through). Every
 * operator action is audited with its actor and outcome, a refusal with the journey's message.
 */
import { decodeFromPayloadsAtIndex } from '@temporalio/common/lib/internal-non-workflow';
import { startStack, type Stack } from '../../cli/stack';
import { journeyProgram, type Outcome, type Run } from '../../cli/journeyProgram';
import { testCaseFileOption, testDirectory, testTemporalConfig, testWorkflowBundle } from '../setup/testEnvironment';
import { caseApiClient } from '../support/caseApiClient';
import { waitUntil } from '../support/waitUntil';
import { simulatorControl } from '../support/faultHarness/rawProviderApi';
import { startWorker } from '../../worker/createWorker';
import { startOnboardCase } from '../support/startOnboardCase';
import { msToNumber } from '@temporalio/common/lib/time';
import { defaultDeadlines } from '../../client/deadlines';

let stack: Stack;
let api: ReturnType<typeof caseApiClient>;

beforeAll(async () => {
  stack = await startStack({
    temporal: testTemporalConfig(),
    caseFile: testCaseFileOption(),
    workflowBundle: testWorkflowBundle(),
    simulatorSeed: 2261,
    spoolDir: testDirectory('read-model-spool'),
    processingDelayMs: 20,
  });
  api = caseApiClient(stack.caseApi.url);
});

// Each test counts calls from its own spies: a spy left on the client would carry its calls into
// the next test (jest.spyOn of a method already spied returns the same mock), whatever the order.
afterEach(() => jest.restoreAllMocks());

afterAll(async () => {
  await stack?.stop();
});

/** Runs a `journey` command through the CLI's own code, on the stack's client and case file. */
async function journeyCommand(args: string[] | string, ...rest: string[]): Promise<Outcome> {
  return journeyCommandPrinting(() => undefined, ...(typeof args === 'string' ? [args, ...rest] : args));
}

async function journeyCommandPrinting(
  print: (text: string, json: unknown) => void,
  ...args: string[]
): Promise<Outcome> {
  let run: Run | undefined;
  journeyProgram((chosen) => (run = chosen)).parse(['--json', ...args], { from: 'user' });
  const out = { json: true, print, progress: () => undefined };
  return (run as Run)(
    { client: stack.client, taskQueue: stack.temporal.taskQueue, caseFile: async () => stack.caseFile },
    out,
  );
}

test('a closed case is read from the read model: its final state, the queue by company name, its timeline with who did what; no query, no describe', async () => {
  const control = simulatorControl(stack.simulator);
  const keys = stack.caseApiKeys!;
  const caseId = (await control('/cases', {})).case_id as string;
  const ambiguous = ((await control('/companies')) as { company_id: string; company_name: string }[]).find(
    (c) => c.company_name === 'Ambiguous Foods Ltd',
  )!;
  const beforeStart = Date.now();
  const started = await api('POST', '/v1/cases', {
    key: keys.origination,
    body: {
      caseId,
      company: { company_id: ambiguous.company_id, company_name: 'Ambiguous Foods Ltd' },
      steps: { creditReport: true },
    },
  });
  expect(started.status).toBe(201);

  // The picklist waits for an operator: the journey wrote that, with its candidates, and since when.
  const waiting = await waitUntil('the read model shows the picklist', async () => {
    const record = await stack.caseFile.caseRecord(caseId);
    return record?.state === 'needs_attention' && record.picklist?.length ? record : undefined;
  });
  const seenWaiting = Date.now();
  expect(waiting).toMatchObject({
    runStatus: 'RUNNING',
    company: 'Ambiguous Foods Ltd',
    steps: { 'credit-report': { state: 'waiting' } },
  });
  expect(waiting.waitingSince).not.toBeNull();

  // The queue's deadline is the picklist's expiry (a step runs, so the journey has no operator
  // deadline): deadlines.picklist after the wait began, which was between the start and now.
  const picklistMs = msToNumber(defaultDeadlines.picklist);
  const expiresAt = (waiting.steps['credit-report']!.detail as { expiresAt?: string }).expiresAt;
  expect(expiresAt).toEqual(expect.any(String));
  expect(waiting).toMatchObject({ operatorDeadline: null, deadline: expiresAt });
  const deadline = Date.parse(waiting.deadline!);
  expect(deadline).toBeGreaterThanOrEqual(beforeStart + picklistMs - 1_000);
  expect(deadline).toBeLessThanOrEqual(seenWaiting + picklistMs + 1_000);
  expect(Math.abs(deadline - Date.parse(waiting.waitingSince!) - picklistMs)).toBeLessThan(60_000);
  // The API's list answers it as the case's deadline, and its case the step's expiry.
  const queue = await api(
    'GET',
    `/v1/cases?state=needs_attention&sort=deadline&name=${encodeURIComponent('Ambiguous Foods')}`,
    { key: keys.origination },
  );
  expect(queue.body.cases.find((c: { caseId: string }) => c.caseId === caseId)).toMatchObject({
    operatorDeadline: null,
    deadline: waiting.deadline,
  });
  const waitingCase = await api('GET', `/v1/cases/${caseId}`, { key: keys.origination });
  expect(waitingCase.body.steps['credit-report']).toMatchObject({ state: 'waiting', detail: { expiresAt } });

  // A refused action and an accepted one, both by the operator key, both in the audit trail.
  const refused = await api('POST', `/v1/cases/${caseId}/steps/banking/waive`, {
    key: keys.operator,
    body: { reason: 'no bank' },
  });
  expect(refused.status).toBe(409);
  const waived = await api('POST', `/v1/cases/${caseId}/steps/credit-report/waive`, {
    key: keys.operator,
    body: { reason: 'company checked by phone' },
    headers: { 'Idempotency-Key': 'waive-1' },
  });
  expect(waived.status).toBe(200);
  const closed = await waitUntil('the read model keeps the closed journey', async () => {
    const record = await stack.caseFile.caseRecord(caseId);
    return record?.runStatus === 'COMPLETED' ? record : undefined;
  });
  expect(closed).toMatchObject({
    state: 'completed',
    outcome: 'completed',
    deadline: null,
    steps: { 'credit-report': { state: 'waived', reason: 'waived: company checked by phone' } },
  });
  expect(closed.closedAt).not.toBeNull();

  const service = stack.client.workflowService;
  const queries = jest.spyOn(service, 'queryWorkflow');
  const describes = jest.spyOn(service, 'describeWorkflowExecution');
  const visibility = jest.spyOn(service, 'listWorkflowExecutions');

  const read = await api('GET', `/v1/cases/${caseId}`, { key: keys.origination });
  expect(read).toMatchObject({
    status: 200,
    body: {
      caseId,
      state: 'completed',
      runStatus: 'COMPLETED',
      runId: closed.runId,
      steps: { 'credit-report': { state: 'waived', picklist: null } },
    },
  });
  const listed = await api(
    'GET',
    `/v1/cases?name=${encodeURIComponent('ambiguous FOODS')}&stepState=waived&state=completed`,
    { key: keys.origination },
  );
  expect(listed.status).toBe(200);
  expect(listed.body.cases.find((c: { caseId: string }) => c.caseId === caseId)).toMatchObject({
    company: 'Ambiguous Foods Ltd',
    runStatus: 'COMPLETED',
  });

  const status = await journeyCommand('status', caseId);
  expect(status.json).toMatchObject({
    caseId,
    state: 'completed',
    runStatus: 'COMPLETED',
    steps: { 'credit-report': { state: 'waived' } },
  });
  const plan = await journeyCommand('retry', caseId, '--dry-run');
  expect(plan.json).toMatchObject({ caseId, carriedOver: ['credit-report'], rerun: [], dryRun: true });

  const timeline = await api('GET', `/v1/cases/${caseId}/timeline`, { key: keys.origination });
  expect(timeline.status).toBe(200);
  const actions = timeline.body.entries.filter((e: { kind: string }) => e.kind === 'operator_action');
  expect(actions).toEqual([
    expect.objectContaining({
      actor: 'embedded-operator',
      action: 'waiveStep',
      step: 'banking',
      reason: 'no bank',
      outcome: 'refused',
      message: expect.stringContaining('unknown step "banking"'),
    }),
    expect.objectContaining({
      actor: 'embedded-operator',
      action: 'waiveStep',
      step: 'credit-report',
      reason: 'company checked by phone',
      requestId: 'waive-step/waive-1',
      outcome: 'accepted',
      message: null,
    }),
  ]);
  expect(
    timeline.body.entries.some(
      (e: { kind: string; record?: string }) => e.kind === 'provider_record' && e.record === 'credit_report',
    ),
  ).toBe(true);

  expect({
    queries: queries.mock.calls.length,
    describes: describes.mock.calls.length,
    visibilityLists: visibility.mock.calls.length,
  }).toEqual({ queries: 0, describes: 0, visibilityLists: 0 });
  // The counters do see a describe when one is made.
  await stack.client.workflow.getHandle(`case/${caseId}`).describe();
  expect(describes).toHaveBeenCalledTimes(1);

  // journey retry starts a new run from that plan; its writes take over from the closed run's.
  const retried = await journeyCommand('retry', caseId);
  const runId = (retried.json as { runId: string }).runId;
  expect(runId).not.toBe(closed.runId);
  const rerun = await waitUntil('the new run wrote its end', async () => {
    const record = await stack.caseFile.caseRecord(caseId);
    return record?.runId === runId && record.runStatus === 'COMPLETED' ? record : undefined;
  });
  expect(rerun).toMatchObject({
    state: 'completed',
    startedAt: closed.startedAt,
    steps: { 'credit-report': { state: 'waived' } },
  });
});

test("an applicant's name given at start is searched in the case file, and never reaches the journey's history", async () => {
  const control = simulatorControl(stack.simulator);
  const keys = stack.caseApiKeys!;
  const caseId = (await control('/cases', {})).case_id as string;
  const person = (await control('/persons', { first_name: 'Augusta', last_name: 'King' })) as { person_id: string };
  const input = {
    caseId,
    people: [{ personId: person.person_id, name: 'Augusta Ada King' }],
    steps: { identityVerification: true },
  };
  expect((await api('POST', '/v1/cases', { key: keys.origination, body: input })).status).toBe(201);

  const found = await waitUntil("the case is listed by the applicant's name", async () => {
    const answer = await api('GET', `/v1/cases?name=${encodeURIComponent('ada KING')}`, { key: keys.origination });
    return answer.body.cases?.find((c: { caseId: string }) => c.caseId === caseId);
  });
  expect(found).toMatchObject({ applicants: [{ personId: person.person_id, name: 'Augusta Ada King' }] });

  const history = await stack.client.workflow.getHandle(`case/${caseId}`).fetchHistory();
  const payloads = history.events?.[0]?.workflowExecutionStartedEventAttributes?.input?.payloads ?? [];
  const started = await decodeFromPayloadsAtIndex<{ people: { personId: string }[] }>(
    stack.client.options.loadedDataConverter,
    0,
    payloads,
  );
  expect(started.people).toEqual([{ personId: person.person_id }]);
  expect(
    (await api('POST', `/v1/cases/${caseId}/cancel`, { key: keys.operator, body: { reason: 'test over' } })).status,
  ).toBe(202);
});

test('journey watch follows the read model: every change of a journey to its end, with no query and no describe', async () => {
  const control = simulatorControl(stack.simulator);
  const keys = stack.caseApiKeys!;
  const caseId = (await control('/cases', {})).case_id as string;
  const ambiguous = ((await control('/companies')) as { company_id: string; company_name: string }[]).find(
    (c) => c.company_name === 'Ambiguous Foods Ltd',
  )!;
  expect(
    (
      await api('POST', '/v1/cases', {
        key: keys.origination,
        body: { caseId, company: { company_id: ambiguous.company_id }, steps: { creditReport: true } },
      })
    ).status,
  ).toBe(201);
  await waitUntil('the journey wrote its state', () => stack.caseFile.caseRecord(caseId));

  const service = stack.client.workflowService;
  const queries = jest.spyOn(service, 'queryWorkflow');
  const describes = jest.spyOn(service, 'describeWorkflowExecution');
  const seen: { state: string }[] = [];
  const watching = journeyCommandPrinting((_text, json) => seen.push(json as { state: string }), 'watch', caseId);
  await waitUntil('watch shows the picklist', () => seen.some((s) => s.state === 'needs_attention'));
  expect(
    (
      await api('POST', `/v1/cases/${caseId}/steps/credit-report/waive`, {
        key: keys.operator,
        body: { reason: 'checked by phone' },
      })
    ).status,
  ).toBe(200);
  const ended = await watching;
  expect(ended.failed).toBe(false);
  expect(seen.at(-1)).toEqual({ caseId, ended: 'completed' });
  // The one describe is the waive's own (an action checks that the journey runs), none is the watch's.
  expect({ queries: queries.mock.calls.length, describes: describes.mock.calls.length }).toEqual({
    queries: 0,
    describes: 1,
  });
});

test('with no worker left that runs its workflow code, a closed case is still read and retried', async () => {
  // The journey runs on a task queue of its own, served by a worker that is then stopped for good:
  // a `status` query of that run could no longer be answered (nothing would replay it).
  const ownQueue = { ...stack.temporal, taskQueue: `read-model-retired-${Date.now()}` };
  const retired = await startWorker({
    temporal: ownQueue,
    provider: stack.provider.config,
    caseFile: stack.caseFile,
    workflowBundle: testWorkflowBundle(),
    payloadKeys: stack.payloadKeys,
  });
  const control = simulatorControl(stack.simulator);
  const caseId = (await control('/cases', {})).case_id as string;
  const personId = (await control('/persons', {})).person_id as string;
  try {
    const handle = await startOnboardCase(stack.client, {
      taskQueue: ownQueue.taskQueue,
      args: [{ caseId, people: [{ personId }], steps: { identityVerification: true } }],
    });
    await waitUntil(
      'the IDV step waiting in the read model',
      async () =>
        (await stack.caseFile.caseRecord(caseId))?.steps[`identity-verification/${personId}`]?.state === 'waiting',
    );
    await handle.signal('cancel', { reason: 'applicant withdrew' });
    await handle.result().catch(() => undefined);
  } finally {
    await retired.stop();
  }

  const queries = jest.spyOn(stack.client.workflowService, 'queryWorkflow');
  const read = await api('GET', `/v1/cases/${caseId}`, { key: stack.caseApiKeys!.origination });
  expect(read).toMatchObject({
    status: 200,
    body: { caseId, state: 'cancelled', steps: { [`identity-verification/${personId}`]: { state: 'cancelled' } } },
  });
  expect((await journeyCommand('status', caseId)).json).toMatchObject({ caseId, state: 'cancelled' });
  // journey retry plans from the read model and starts the next run on today's workers.
  const retried = await journeyCommand('retry', caseId);
  const runId = (retried.json as { runId: string }).runId;
  const rerun = await waitUntil('the retried run waiting for the applicant', async () => {
    const record = await stack.caseFile.caseRecord(caseId);
    return record?.runId === runId && record.steps[`identity-verification/${personId}`]?.state === 'waiting'
      ? record
      : undefined;
  });
  expect(rerun.runStatus).toBe('RUNNING');
  expect(queries).not.toHaveBeenCalled();
  // The run ends before the stack stops: its cancel's writes and calls are not cut off mid-way.
  const rerunHandle = stack.client.workflow.getHandle(`case/${caseId}`);
  await rerunHandle.signal('cancel', { reason: 'test done' });
  await rerunHandle.result().catch(() => undefined);
});
