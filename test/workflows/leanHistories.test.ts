/**
 * Lean histories (docs/architecture.md, "One delivery, end to end"), read from the histories of a
 * real journey. Each assertion catches a way of spending more: a step reporting every change of
 * state (11 reports for 6 steps), a resource polling the provider once more after its webhook has
 * settled it, a parent and child delivery of one occurrence forwarded to the step twice.
 */
import { SIGHTING_GRACE_MS } from '../../workflows/resourceSighting';
import { randomUUID } from 'node:crypto';
import type { Client } from '@temporalio/client';
import { temporal } from '@temporalio/proto';
import { runDemoJourney, type DemoOutcome } from '../../cli/demoJourney';
import { journeyHistories } from '../../client/journeyReplay';
import { startStack, type Stack } from '../../cli/stack';
import { waitForStatus } from '../../cli/watchStatus';
import { subscribeToResourceWorkflow } from '../../activities/signalResource';
import { resourceWorkflowId, type ResourceKey } from '../../provider';
import {
  deliverSignal,
  resourceStateQuery,
  type ResourceDelivery,
  type ResourceWorkflowInput,
} from '../../client/resourceMessages';
import { resourceWorkflow } from '../../workflows/resourceWorkflow';
import { identityVerificationWorkflow } from '../../workflows/identityVerificationWorkflow';
import { stepStatusQuery } from '../../client/stepMessages';
import { testCaseFileOption, testDirectory, testTemporalConfig, testWorkflowBundle } from '../setup/testEnvironment';
import { simulatorControl } from '../support/faultHarness/rawProviderApi';
import { isPoll } from '../../bench/journeyCost/polls';
import { waitUntil } from '../support/waitUntil';

const T = temporal.api.enums.v1.EventType;
let stack: Stack;
let demo: DemoOutcome;

beforeAll(async () => {
  stack = await startStack({
    temporal: testTemporalConfig(),
    caseFile: testCaseFileOption(),
    workflowBundle: testWorkflowBundle(),
    simulatorSeed: 1313,
    spoolDir: testDirectory('spool'),
    processingDelayMs: 50,
  });
  demo = await runDemoJourney(stack, () => {});
}, 120_000);

afterAll(async () => {
  await stack?.stop();
});

const eventsOf = async (client: Client, workflowId: string) =>
  (await client.workflow.getHandle(workflowId).fetchHistory()).events ?? [];
const signalsNamed = (events: temporal.api.history.v1.IHistoryEvent[], name: string) =>
  events.filter(
    (e) =>
      e.eventType === T.EVENT_TYPE_WORKFLOW_EXECUTION_SIGNALED &&
      e.workflowExecutionSignaledEventAttributes?.signalName === name,
  ).length;

test('the demo journey completed, and names its run (the Web UI link `npm start` prints ends in it)', async () => {
  expect(demo.status.state).toBe('completed');
  expect(demo.runId).toBe((await stack.client.workflow.getHandle(demo.workflowId).describe()).runId);
});

test('a step reports to its journey once, when it starts to wait; its end comes as the child result', async () => {
  const journey = await eventsOf(stack.client, demo.workflowId);
  let sent = 0;
  let delivered = 0;
  for (const [key, step] of Object.entries(demo.status.steps)) {
    const events = await eventsOf(stack.client, step.workflowId);
    const reports = events.filter(
      (e) => e.signalExternalWorkflowExecutionInitiatedEventAttributes?.signalName === 'stepReport',
    );
    // Every step but the credit report (no picklist here) waits once: for the applicant or the provider.
    expect([key, reports.length]).toEqual([key, key === 'credit-report' ? 0 : 1]);
    sent += reports.length;
    const reportIds = new Set(reports.map((e) => String(e.eventId)));
    delivered += events.filter((e) =>
      reportIds.has(String(e.externalWorkflowExecutionSignaledEventAttributes?.initiatedEventId ?? '')),
    ).length;
  }
  // A step whose result came in the task that made it wait completes in that same task, and the
  // server drops a signal whose sender has closed: the journey then hears of it only by its result.
  // (And a step that closes between the delivery and its acknowledgement has no record of the
  // delivery: hence the bounds, not an equality.)
  expect(sent).toBe(Object.keys(demo.status.steps).length - 1);
  const received = signalsNamed(journey, 'stepReport');
  expect(received).toBeGreaterThanOrEqual(delivered);
  expect(received).toBeLessThanOrEqual(sent);
});

test('the parent and child deliveries of one occurrence reach the step once', async () => {
  const bankingResource = `resource/case-banking/${demo.caseId.toLowerCase()}`;
  const state = await stack.client.workflow.getHandle(bankingResource).query(resourceStateQuery);
  // BankingProcessing.Completed and its child OpenBankingProcessing.Completed: one occurrence.
  expect(state.events.map((e) => e.eventType).sort()).toEqual([
    'BankingProcessing.Completed',
    'OpenBankingProcessing.Completed',
  ]);
  expect(state.occurrences).toBe(1);
  const banking = await eventsOf(stack.client, demo.status.steps.banking!.workflowId);
  expect(signalsNamed(banking, 'resourceEvent')).toBe(1);
});

test('a resource settled by its webhook does not ask the provider again: its next timer is the quiet hour after its outcome, not a poll', async () => {
  const control = simulatorControl(stack.simulator);
  const personId = (await control('/persons', {})).person_id as string;
  const handle = await stack.client.workflow.start(identityVerificationWorkflow, {
    workflowId: `step/${randomUUID()}`,
    taskQueue: stack.temporal.taskQueue,
    args: [{ personId, deadline: '30 seconds', reconcileAfter: '2 seconds' }],
  });
  const requestId = (await waitForStatus(handle, stepStatusQuery, (s) => s.state === 'waiting')).providerIds
    .request_id as string;
  await control(`/identity-verifications/${requestId}/complete`, { verification_status: 'Approved' });
  expect(await handle.result()).toMatchObject({ state: 'completed' });

  const resourceId = `resource/idv/${requestId}`;
  // The resource's last command, once it has forwarded the event: the timer it waits on next.
  const lastTimer = () =>
    waitUntil(`${resourceId} starting a timer after forwarding the event`, async () => {
      const events = await eventsOf(stack.client, resourceId);
      const forwarded = events.findIndex((e) => e.eventType === T.EVENT_TYPE_EXTERNAL_WORKFLOW_EXECUTION_SIGNALED);
      const timer = events.slice(forwarded + 1).find((e) => e.eventType === T.EVENT_TYPE_TIMER_STARTED);
      return forwarded >= 0 && timer ? timer.timerStartedEventAttributes! : undefined;
    });
  const timer = await lastTimer();
  // Its outcome has reached the step: it stays an hour for late deliveries, then ends (below).
  // (Counted from the delivery, so a little under the hour by the time the timer starts.)
  expect(Number(timer.startToFireTimeout?.seconds ?? 0)).toBeGreaterThan(3500);
  expect(Number(timer.startToFireTimeout?.seconds ?? 0)).toBeLessThanOrEqual(3600);
  const polls = (await eventsOf(stack.client, resourceId)).filter(isPoll);
  expect(polls).toHaveLength(0);
}, 60_000);

describe('a resource whose outcome reached its subscribers', () => {
  const idvCompleted = (requestId: string): ResourceDelivery => ({
    dedupeId: `batch-${requestId}|IdentityVerification.Completed|0`,
    eventType: 'IdentityVerification.Completed',
    batchId: `batch-${requestId}`,
    webhookId: 'test',
    datetimeSent: new Date().toISOString(),
    receivedAt: new Date().toISOString(),
    parse: 'known',
    data: { request_id: requestId, verification_status: 'Approved' },
  });
  /** Delivers through signalWithStart, as the bridge does. */
  const startResource = (resource: ResourceKey, input: Partial<ResourceWorkflowInput>, delivery: ResourceDelivery) =>
    stack.client.workflow.signalWithStart(resourceWorkflow, {
      workflowId: resourceWorkflowId(resource),
      taskQueue: stack.temporal.taskQueue,
      args: [{ resource, ...input }],
      signal: deliverSignal,
      signalArgs: [delivery],
    });
  const timersOf = async (workflowId: string, runId?: string) =>
    (await stack.client.workflow.getHandle(workflowId, runId).fetchHistory())
      .events!.filter((e) => e.timerStartedEventAttributes)
      .map((e) => Number(e.timerStartedEventAttributes!.startToFireTimeout!.seconds ?? 0));
  /**
   * The timers of a run once it waits for its retention (in seconds): a delivery nobody took is
   * first held for the sighting grace, then recorded as a sighting (workflows/resourceSighting.ts).
   */
  /** The sighting grace, then the 30-day retention counted from the delivery (a few seconds before). */
  const retainedAfterSighting = [SIGHTING_GRACE_MS / 1000, '30 days from the delivery'];
  const retention = (seconds: number) =>
    seconds <= 30 * 24 * 3600 && seconds > 30 * 24 * 3600 - 60 ? '30 days from the delivery' : seconds;
  const timersOnceRetained = (workflowId: string, runId?: string) =>
    waitUntil(`${workflowId} (run ${runId ?? 'latest'}) waiting for its retention`, async () => {
      const timers = await timersOf(workflowId, runId);
      return timers.some((t) => t > SIGHTING_GRACE_MS / 1000) ? timers.map(retention) : undefined;
    });

  test('ends after its quiet time instead of the 30-day retention; a late delivery starts a new run that keeps it', async () => {
    // Any running workflow can be a subscriber: here another mailbox, which just buffers the events.
    const subscriber = await startResource(
      { kind: 'unrouted', id: `subscriber-${randomUUID()}` },
      {},
      { ...idvCompleted('x'), eventType: 'Test.Sink', parse: 'unknown-event-type' },
    );
    const requestId = randomUUID();
    const resource: ResourceKey = { kind: 'idv', id: requestId };
    // As the worker's activities subscribe with RESOURCE_QUIET_AFTER_OUTCOME=1s.
    await subscribeToResourceWorkflow(
      { client: stack.client, taskQueue: stack.temporal.taskQueue, quietAfterOutcomeMs: 1000 },
      resource,
      { workflowId: subscriber.workflowId },
    );
    const handle = await startResource(resource, {}, idvCompleted(requestId));

    const ended = await stack.client.workflow
      .getHandle<typeof resourceWorkflow>(handle.workflowId, handle.signaledRunId)
      .result();
    expect(ended.events.map((e) => e.eventType)).toEqual(['IdentityVerification.Completed']);
    expect((await timersOf(handle.workflowId, handle.signaledRunId)).at(-1)).toBeLessThanOrEqual(1);

    // The same delivery again, after the end: nothing is lost, a new run holds it for a subscriber.
    const late = await startResource(resource, {}, idvCompleted(requestId));
    expect(late.signaledRunId).not.toBe(handle.signaledRunId);
    const state = await stack.client.workflow.getHandle(late.workflowId).query(resourceStateQuery);
    expect(state.events).toHaveLength(1);
    // Nobody has been told here: it waits the whole retention, as any delivery before a subscription.
    expect(await timersOnceRetained(late.workflowId, late.signaledRunId)).toEqual(retainedAfterSighting);
    await Promise.all([late.terminate('test done'), subscriber.terminate('test done')]);
  });

  test('a subscriber that comes after both deliveries of an occurrence is replayed it once (lean-histories-3)', async () => {
    const documentId = randomUUID();
    const resource: ResourceKey = { kind: 'document', id: documentId };
    const document = {
      document_id: documentId,
      document_endpoint: `/v2/documents/${documentId}`,
      file_name: 'payslip.pdf',
    };
    const ofOccurrence = (eventType: string, data: Record<string, unknown> = {}): ResourceDelivery => ({
      ...idvCompleted(documentId),
      dedupeId: `batch-${documentId}|${eventType}|0`,
      eventType,
      data: { status: 'Complete', message: null, document, ...data },
    });
    // The child and the parent delivery of one occurrence (one batch), as the provider sends them.
    const handle = await startResource(resource, {}, ofOccurrence('PayslipProcessing.Completed'));
    await handle.signal(deliverSignal, ofOccurrence('DocumentProcessing.Completed', { document_type: 'Payslip' }));
    await waitForStatus(handle, resourceStateQuery, (s) => s.events.length === 2);

    const subscriber = await startResource(
      { kind: 'unrouted', id: `subscriber-${randomUUID()}` },
      {},
      { ...idvCompleted('y'), eventType: 'Test.Sink', parse: 'unknown-event-type' },
    );
    await subscribeToResourceWorkflow({ client: stack.client, taskQueue: stack.temporal.taskQueue }, resource, {
      workflowId: subscriber.workflowId,
    });
    // The signals the resource sent, once it has sent them all (it forwards one at a time): it
    // waits on a timer again after the last of them reached the subscriber.
    const sent = () =>
      waitUntil(`${handle.workflowId} forwarding its deliveries and waiting on a timer again`, async () => {
        const types = (await eventsOf(stack.client, handle.workflowId)).map((e) => e.eventType);
        const initiated = types.filter((t) => t === T.EVENT_TYPE_SIGNAL_EXTERNAL_WORKFLOW_EXECUTION_INITIATED).length;
        const lastSignalled = types.lastIndexOf(T.EVENT_TYPE_EXTERNAL_WORKFLOW_EXECUTION_SIGNALED);
        const done =
          initiated > 0 &&
          lastSignalled > types.lastIndexOf(T.EVENT_TYPE_SIGNAL_EXTERNAL_WORKFLOW_EXECUTION_INITIATED) &&
          types.lastIndexOf(T.EVENT_TYPE_TIMER_STARTED) > lastSignalled;
        return done ? initiated : undefined;
      });
    expect(await sent()).toBe(1);
    expect(signalsNamed(await eventsOf(stack.client, subscriber.workflowId), 'resourceEvent')).toBe(1);
    await Promise.all([handle.terminate('test done'), subscriber.terminate('test done')]);
  });

  test('a settled resource that has told nobody keeps the 30-day retention', async () => {
    const requestId = randomUUID();
    const handle = await startResource(
      { kind: 'idv', id: requestId },
      { quietAfterOutcome: '1 second' },
      idvCompleted(requestId),
    );
    expect(await timersOnceRetained(handle.workflowId)).toEqual(retainedAfterSighting);
    await handle.terminate('test done');
  });
});

test('journey replay still finds every resource workflow, though lean steps subscribe in their creating activity', async () => {
  const histories = await journeyHistories({ client: stack.client, taskQueue: stack.temporal.taskQueue }, demo.caseId);
  const resources = [...histories.keys()].filter((id) => id.startsWith('resource/')).map((id) => id.split('/')[1]);
  expect(resources.sort()).toEqual(['affordability', 'case-banking', 'document', 'idv', 'income-employer']);
});
