/**
 * A journey's life at its edges, as a deployment meets them: a terminate mid-step, a reset, a start
 * by a client that is not ours, and a history long enough to continue as new. (An operator acting
 * after the main loop ended is test/logic/journeyDecisions.test.ts.)
 */
import { randomUUID } from 'node:crypto';
import { WorkflowFailedError } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import { startStack, type Stack } from '../../cli/stack';
import { waitForStatus } from '../../cli/watchStatus';
import {
  journeyStatusQuery,
  journeyWorkflowId,
  journeyWorkflowType,
  retryStepUpdate,
  waiveStepUpdate,
  type JourneyStatus,
} from '../../client/journeyMessages';
import type { OnboardCaseInput } from '../../client/journeyInput';
import { caseWorkflowIds } from '../../client/journeyReplay';
import { resourceStateQuery } from '../../client/resourceMessages';
import { caseIdSearchAttribute } from '../../client/searchAttributes';
import type { StepStatus } from '../../client/stepMessages';
import type { Company } from '../../simulator/store';
import { simulatorControl } from '../support/faultHarness/rawProviderApi';
import { testCaseFileOption, testDirectory, testTemporalConfig, testWorkflowBundle } from '../setup/testEnvironment';
import { startHoldingLos, type HoldingLos } from '../support/holdingLos';
import { startOnboardCase } from '../support/startOnboardCase';
import { waitUntil } from '../support/waitUntil';

jest.setTimeout(90_000);

let stack: Stack;
let los: HoldingLos;

beforeAll(async () => {
  los = await startHoldingLos();
  stack = await startStack({
    temporal: testTemporalConfig(),
    caseFile: testCaseFileOption(),
    workflowBundle: testWorkflowBundle(),
    simulatorSeed: 3301,
    spoolDir: testDirectory('spool'),
    processingDelayMs: 20,
    caseEvents: { url: los.url, secret: `whsec_${Buffer.alloc(32, 7).toString('base64')}`, timeoutMs: 60_000 },
  });
});

afterAll(async () => {
  await stack?.stop();
  await los?.close();
});

afterEach(() => los.release());

const control = (path: string, body?: unknown) => simulatorControl(stack.simulator)(path, body);
const newCase = () => control('/cases', {}).then((c) => c.case_id as string);
const newPerson = () => control('/persons', {}).then((p) => p.person_id as string);
const acme = async () =>
  ((await control('/companies')) as Company[]).find((c) => c.company_name === 'Acme Widgets Ltd')!;

const start = (input: OnboardCaseInput) =>
  startOnboardCase(stack.client, { taskQueue: stack.temporal.taskQueue, args: [input] });

test("a terminated journey's step is asked to stop: it answers cancelled with what it bought, and leaves its resource", async () => {
  const personId = await newPerson();
  const idv = `identity-verification/${personId}`;
  const handle = await start({
    caseId: await newCase(),
    people: [{ personId }],
    steps: { identityVerification: true },
    deadlines: { identityVerification: '5 minutes' },
  });
  const waiting = await waitForStatus(
    handle,
    journeyStatusQuery,
    (s) => s.steps[idv]?.state === 'waiting' && Boolean(s.steps[idv]?.providerIds.request_id),
  );
  const step = waiting.steps[idv]!;
  const ctx = { client: stack.client, taskQueue: stack.temporal.taskQueue };
  const subscribers = (id: string) =>
    stack.client.workflow
      .getHandle(id)
      .query(resourceStateQuery)
      .then((s) => s.subscribers);
  const resources = await waitUntil('the step subscribed to its resource', async () => {
    const ids = (await caseWorkflowIds(ctx, waiting.caseId)).filter((id) => id.startsWith('resource/'));
    for (const id of ids) if (!(await subscribers(id)).includes(step.workflowId)) return false;
    return ids.length > 0 && ids;
  });
  await handle.terminate('the case was withdrawn');

  const child = stack.client.workflow.getHandle(step.workflowId);
  const result = (await child.result()) as StepStatus;
  expect(result).toMatchObject({
    state: 'cancelled',
    providerIds: { request_id: step.providerIds.request_id },
  });
  expect((await child.describe()).status.name).toBe('COMPLETED');
  // It left the resource it waited on: nobody left for its polls.
  for (const id of resources)
    await waitUntil(`${id} left by the step`, async () => !(await subscribers(id)).includes(step.workflowId));
});

test('a reset journey sends its events again under the same ids', async () => {
  const caseId = await newCase();
  const handle = await start({
    caseId,
    company: { company_id: (await acme()).company_id },
    steps: { creditReport: true },
  });
  const first = await handle.result();
  expect(first.state).toBe('completed');
  const firstRun = (await handle.describe()).runId;
  const sent = await waitUntil('the completed journey announced', () => {
    const ids = los.answeredIds(caseId);
    return los.answeredIds(caseId, 'case.completed').size === 1 && ids.size >= 2 && ids;
  });

  // Back to the journey's first workflow task: every event after it happens again.
  const history = await handle.fetchHistory();
  const firstTask = history.events!.find((e) => e.workflowTaskCompletedEventAttributes)!;
  const { runId: secondRun } = await stack.client.workflowService.resetWorkflowExecution({
    namespace: stack.temporal.namespace,
    workflowExecution: { workflowId: journeyWorkflowId(caseId), runId: firstRun },
    workflowTaskFinishEventId: firstTask.eventId,
    reason: 'lifecycle test: a reset',
    requestId: randomUUID(),
  });
  const again = stack.client.workflow.getHandle(journeyWorkflowId(caseId), secondRun!);
  expect((await again.result()).state).toBe('completed');
  const resent = await waitUntil('the reset run announced its completion', () => {
    const ofRun = los.deliveries.filter((d) => d.caseId === caseId && d.runId === secondRun && d.answered);
    return ofRun.some((d) => d.type === 'case.completed') && new Set(ofRun.map((d) => d.id));
  });
  expect(resent).toEqual(sent);
});

test("a reset journey's read model keeps every step: the case file has the reset run write them all", async () => {
  const caseId = await newCase();
  const personId = await newPerson();
  const idv = `identity-verification/${personId}`;
  // The applicant never acts: the IDV waits until its deadline.
  const handle = await start({
    caseId,
    company: { company_id: (await acme()).company_id },
    people: [{ personId }],
    steps: { creditReport: true, identityVerification: true },
    deadlines: { identityVerification: '6 seconds' },
  });
  const stepStates = async (runId?: string) => {
    const record = await stack.caseFile.caseRecord(caseId);
    if (!record || (runId && record.runId !== runId)) return undefined;
    return Object.fromEntries(Object.entries(record.steps).map(([key, step]) => [key, step.state]));
  };
  await waitUntil('both steps written, the report completed', async () => {
    const states = await stepStates();
    return states?.['credit-report'] === 'completed' && states[idv] === 'waiting';
  });

  // Back to the last workflow task completed so far: the reset run holds what the first run wrote.
  const history = await handle.fetchHistory();
  const lastTask = history.events!.filter((e) => e.workflowTaskCompletedEventAttributes).at(-1)!;
  const { runId: resetRun } = await stack.client.workflowService.resetWorkflowExecution({
    namespace: stack.temporal.namespace,
    workflowExecution: { workflowId: journeyWorkflowId(caseId), runId: (await handle.describe()).runId },
    workflowTaskFinishEventId: lastTask.eventId,
    reason: 'lifecycle test: a reset after the read model took its writes',
    requestId: randomUUID(),
  });
  // The IDV expires: the reset run's first write changes only that step.
  const states = await waitUntil('the expiry written by the reset run', async () => {
    const written = await stepStates(resetRun!);
    return written?.[idv] === 'expired' && written;
  });
  expect(states).toEqual({ 'credit-report': 'completed', [idv]: 'expired' });
  await stack.client.workflow.getHandle(journeyWorkflowId(caseId)).terminate('test over');
});

test('a journey started by another client sets its CaseId, and one it cannot read fails at once naming the fields', async () => {
  const caseId = await newCase();
  // What `temporal workflow start --input` sends: no schema applied, no defaults, no search attributes.
  const raw = await stack.client.workflow.start(journeyWorkflowType, {
    workflowId: journeyWorkflowId(caseId),
    taskQueue: stack.temporal.taskQueue,
    args: [{ caseId, company: { company_id: (await acme()).company_id }, steps: { creditReport: true } }],
  });
  await waitUntil('the CaseId search attribute', async () => {
    const { typedSearchAttributes } = await raw.describe();
    return typedSearchAttributes.get(caseIdSearchAttribute) === caseId;
  });
  expect(((await raw.result()) as JourneyStatus).state).toBe('completed');

  const garbage = await stack.client.workflow.start(journeyWorkflowType, {
    workflowId: `case/garbage-${randomUUID()}`,
    taskQueue: stack.temporal.taskQueue,
    args: [{ case: caseId, steps: 'all', people: [{ id: 'p' }] }],
  });
  const failure = await garbage.result().then(
    () => undefined,
    (error: unknown) => error,
  );
  expect(failure).toBeInstanceOf(WorkflowFailedError);
  const cause = (failure as WorkflowFailedError).cause as ApplicationFailure;
  expect(cause).toBeInstanceOf(ApplicationFailure);
  expect(cause.type).toBe('InvalidJourneyInput');
  expect(cause.nonRetryable).toBe(true);
  expect(cause.message).toContain('caseId');
  expect(cause.message).toContain('steps');
  expect(cause.message).toContain('people[0].personId');
});

test('a journey with a long history continues as new where it stood, and an operator acts on the new run', async () => {
  const caseId = await newCase();
  const personId = await newPerson();
  const idv = `identity-verification/${personId}`;
  const workflowId = journeyWorkflowId(caseId);
  // Started as any client may; the last field asks for a continue-as-new early (Temporal suggests
  // one only at thousands of events).
  const first = await stack.client.workflow.start(journeyWorkflowType, {
    workflowId,
    taskQueue: stack.temporal.taskQueue,
    args: [
      {
        caseId,
        people: [{ personId }],
        steps: { identityVerification: true },
        deadlines: { identityVerification: '1 second', operatorDecision: '1 minute' },
        continueAsNewAtHistoryLength: 10,
      },
    ],
  });
  const latest = stack.client.workflow.getHandle(workflowId);
  const continued = await waitUntil('a second run, needing attention', async () => {
    const { runId, typedSearchAttributes } = await latest.describe();
    if (runId === first.firstExecutionRunId) return false;
    const status = await latest.query(journeyStatusQuery);
    return status.state === 'needs_attention' && typedSearchAttributes.get(caseIdSearchAttribute) === caseId && status;
  });
  expect(continued.steps[idv]).toMatchObject({ state: 'expired', attempt: 1 });

  await latest.executeUpdate(retryStepUpdate, { args: [{ step: idv }] });
  await waitForStatus(
    latest,
    journeyStatusQuery,
    (s) => s.steps[idv]?.attempt === 2 && s.steps[idv]?.state === 'expired' && s.state === 'needs_attention',
  );
  await latest.executeUpdate(waiveStepUpdate, { args: [{ step: idv, reason: 'checked by hand' }] });
  const done = (await latest.result()) as JourneyStatus;
  expect(done.state).toBe('completed');
  expect(done.steps[idv]!.attempts.map((a) => a.attempt)).toEqual([1, 2]);
  // One needs_attention per time the journey needed attention: none lost to an id the first run used.
  await waitUntil('the completion announced', () => los.answeredIds(caseId, 'case.completed').size === 1);
  expect(los.answeredIds(caseId, 'case.needs_attention').size).toBeGreaterThanOrEqual(2);
});
