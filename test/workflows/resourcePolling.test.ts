/**
 * Issue 20, item 7: a resource polls only while a subscriber waits, and ends after its quiet
 * period measured from its last delivery or subscription, never from a poll. Real resource
 * workflows on the dev server against the simulator (pending IDV requests, so every poll answers
 * "not yet"); the subscriber is a probe holding the steps' resource inbox
 * (test/support/resourceInboxProbe.ts), on a worker of its own. Polls are counted in the
 * resource's history.
 */
import { randomUUID } from 'node:crypto';
import type { WorkflowHandle } from '@temporalio/client';
import { tsToMs } from '@temporalio/common/lib/time';
import type { temporal } from '@temporalio/proto';
import { bundleWorkflowCode, DefaultLogger, NativeConnection, Worker } from '@temporalio/worker';
import { routes } from '../../activities/routes';
import { simulatorControl } from '../../bench/faultHarness/rawProviderApi';
import { isPoll } from '../../bench/journeyCost/polls';
import { waitForStatus } from '../../cli/watchStatus';
import { startStack, type Stack } from '../../cli/stack';
import { deliverSignal, resourceWorkflowId, subscribeSignal, type ResourceDelivery, type Subscription } from '../../client/resourceMessages';
import { dataConverterFor, failureConverterPath } from '../../codec/dataConverter';
import { stepStatusQuery } from '../../client/stepMessages';
import { identityVerificationRequestSchema, type ResourceKey } from '../../provider';
import { identityVerificationWorkflow } from '../../workflows/identityVerificationWorkflow';
import { resourceWorkflow } from '../../workflows/resourceWorkflow';
import { testCaseFileOption, testDirectory, testTemporalConfig, testWorkflowBundle } from '../setup/testEnvironment';
import { probeCommandSignal, probeStateQuery, resourceInboxProbe, type ProbeCommand, type ProbeState } from '../support/resourceInboxProbe';
import { waitUntil } from '../support/waitUntil';

type Event = temporal.api.history.v1.IHistoryEvent;

/** The resources' retention here: quiet this long after the last delivery or subscription, they end. */
const RETENTION_MS = 4_000;
const RECONCILE_AFTER = '500 milliseconds';

let stack: Stack;
let probeWorker: Worker;
let probeRun: Promise<void>;
const probeQueue = `probe-${randomUUID()}`;

beforeAll(async () => {
  const [started, probeBundle] = await Promise.all([
    startStack({ temporal: testTemporalConfig(), caseFile: testCaseFileOption(), workflowBundle: testWorkflowBundle(), simulatorSeed: 2007, spoolDir: testDirectory('spool'), processingDelayMs: 50 }),
    bundleWorkflowCode({ workflowsPath: require.resolve('../support/resourceInboxProbe'), failureConverterPath, logger: new DefaultLogger('WARN') }),
  ]);
  stack = started;
  probeWorker = await Worker.create({
    connection: await NativeConnection.connect({ address: stack.temporal.address }),
    namespace: stack.temporal.namespace,
    taskQueue: probeQueue,
    dataConverter: dataConverterFor(stack.payloadKeys),
    workflowBundle: { code: probeBundle.code },
    // The inbox's `subscribe` activity, starting the resource with this test's retention.
    activities: { subscribeToResource: ({ resource, subscription }: { resource: ResourceKey; subscription: Subscription }) => subscribeResource(resource, subscription) },
  });
  probeRun = probeWorker.run();
}, 120_000);

afterAll(async () => {
  if (probeWorker?.getState() === 'RUNNING') probeWorker.shutdown();
  await probeRun;
  await stack?.stop();
});

const control = (path: string, body?: unknown) => simulatorControl(stack.simulator)(path, body);

/** A pending IDV request at the provider: polling it answers "not yet" for as long as the test runs. */
async function pendingIdvResource(): Promise<ResourceKey> {
  const personId = (await control('/persons', {})).person_id as string;
  const created = await stack.provider.call({ route: routes.createIdentityVerification, params: { personId }, body: {}, schema: identityVerificationRequestSchema });
  return { kind: 'idv', id: created.request_id };
}

/** What the bridge and the activities do (signalWithStart), with this test's retention. */
async function subscribeResource(resource: ResourceKey, subscription: Subscription): Promise<void> {
  await stack.client.workflow.signalWithStart(resourceWorkflow, {
    workflowId: resourceWorkflowId(resource),
    taskQueue: stack.temporal.taskQueue,
    args: [{ resource, retention: `${RETENTION_MS} milliseconds` }],
    signal: subscribeSignal,
    signalArgs: [subscription],
  });
}

const resourceHandle = (resource: ResourceKey) => stack.client.workflow.getHandle<typeof resourceWorkflow>(resourceWorkflowId(resource));

function deliver(resource: ResourceKey, name: string): Promise<void> {
  const now = new Date().toISOString();
  const delivery: ResourceDelivery = { dedupeId: `${name}|Test.Unknown|${randomUUID()}`, eventType: 'Test.Unknown', batchId: null, webhookId: 'w', datetimeSent: now, receivedAt: now, parse: 'unknown-event-type', data: {} };
  return resourceHandle(resource).signal(deliverSignal, delivery);
}

const startProbe = () => stack.client.workflow.start(resourceInboxProbe, { workflowId: `probe/${randomUUID()}`, taskQueue: probeQueue, args: [] });

/** Sends a command and waits until the probe has carried out `done` of them. */
async function command(probe: WorkflowHandle<typeof resourceInboxProbe>, sent: ProbeCommand, done: number): Promise<ProbeState> {
  await probe.signal(probeCommandSignal, sent);
  return waitUntil(`the probe carrying out ${sent.op}`, async () => {
    const state = await probe.query(probeStateQuery);
    return state.done >= done && state;
  });
}

const historyOf = async (resource: ResourceKey): Promise<Event[]> => (await resourceHandle(resource).fetchHistory()).events ?? [];
const timeOf = (event: Event) => tsToMs(event.eventTime);
const idOf = (event: Event) => Number(event.eventId);
const signaled = (events: Event[], name: string) => events.filter((e) => e.workflowExecutionSignaledEventAttributes?.signalName === name);
/** Each poll: its activity scheduled, or its local activity's marker (resources that back off). */
const pollsScheduled = (events: Event[]) => events.filter(isPoll);
/** Each poll's answer ("not yet"): its activity's completion, or its local activity's marker. */
function pollsCompleted(events: Event[]): Event[] {
  const polls = new Set(pollsScheduled(events).map(idOf));
  return events.filter((e) => (e.markerRecordedEventAttributes && isPoll(e)) || (e.activityTaskCompletedEventAttributes && polls.has(Number(e.activityTaskCompletedEventAttributes.scheduledEventId))));
}

test('a resource whose only subscriber unsubscribes stops polling, and ends its quiet period after its last delivery although it polled', async () => {
  const resource = await pendingIdvResource();
  const probe = await startProbe();
  // Polling without backing off (the cap is reconcileAfter): four polls fit in the quiet period.
  await command(probe, { op: 'subscribe', resource, reconcileAfter: RECONCILE_AFTER, reconcileBackoffCap: RECONCILE_AFTER }, 1);
  await deliver(resource, 'last-delivery');
  await waitUntil('the delivery forwarded to the probe', async () => (await probe.query(probeStateQuery)).received.length === 1);
  // No outcome yet: the resource goes on polling after the delivery.
  const deliveredAt = timeOf(signaled(await historyOf(resource), 'deliver')[0]!);
  await waitUntil('four polls after the delivery', async () => pollsCompleted(await historyOf(resource)).filter((e) => timeOf(e) > deliveredAt).length >= 4, { timeoutMs: 30_000 });

  await command(probe, { op: 'unsubscribe', resource }, 2);
  const ended = await resourceHandle(resource).result();

  expect(ended.subscribers).toEqual([]);
  const events = await historyOf(resource);
  const unsubscribed = signaled(events, 'unsubscribe');
  expect(unsubscribed).toHaveLength(1);
  expect(pollsScheduled(events).filter((e) => idOf(e) > idOf(unsubscribed[0]!))).toEqual([]);
  const completedAt = timeOf(events.at(-1)!);
  const lastPollAt = Math.max(...pollsCompleted(events).map(timeOf));
  expect(events.at(-1)!.workflowExecutionCompletedEventAttributes).toBeTruthy();
  // Quiet from the delivery: the polls (the last one well after it) did not start it again.
  expect(lastPollAt - deliveredAt).toBeGreaterThanOrEqual(1_500);
  expect(completedAt - deliveredAt).toBeGreaterThanOrEqual(RETENTION_MS);
  expect(completedAt - lastPollAt).toBeLessThan(RETENTION_MS);
  await probe.signal(probeCommandSignal, { op: 'finish' });
  expect((await probe.result()).subscribed).toEqual([]);
});

test('a subscriber found closed while an event is forwarded is dropped, and polling stops', async () => {
  const resource = await pendingIdvResource();
  const probe = await startProbe();
  await command(probe, { op: 'subscribe', resource, reconcileAfter: RECONCILE_AFTER }, 1);
  await waitUntil('two polls', async () => pollsCompleted(await historyOf(resource)).length >= 2, { timeoutMs: 30_000 });
  // The step ends without unsubscribing (as every step did before this change).
  await probe.terminate('closed without unsubscribing');
  await deliver(resource, 'to-a-closed-subscriber');

  const ended = await resourceHandle(resource).result();

  expect(ended.subscribers).toEqual([]);
  const events = await historyOf(resource);
  const forwardFailed = events.filter((e) => e.signalExternalWorkflowExecutionFailedEventAttributes);
  expect(forwardFailed).toHaveLength(1);
  expect(pollsScheduled(events).filter((e) => idOf(e) > idOf(forwardFailed[0]!))).toEqual([]);
  expect(timeOf(events.at(-1)!) - timeOf(signaled(events, 'deliver')[0]!)).toBeGreaterThanOrEqual(RETENTION_MS);
});

test('the inbox remembers the resources it subscribed to, tracked or heard from; cancelled, it unsubscribes from all of them', async () => {
  const [viaSubscribe, viaActivity, viaEvent] = await Promise.all([pendingIdvResource(), pendingIdvResource(), pendingIdvResource()]);
  const probe = await startProbe();
  const asTheInboxWould = { workflowId: probe.workflowId, reconcileAfterMs: 500 };
  await command(probe, { op: 'subscribe', resource: viaSubscribe, reconcileAfter: RECONCILE_AFTER }, 1);
  // A creating activity subscribes with `inbox.subscription()`; the step then tracks the resource.
  await subscribeResource(viaActivity, asTheInboxWould);
  await command(probe, { op: 'track', resource: viaActivity }, 2);
  // Subscribed by an activity, not tracked: known once an event comes from it.
  await subscribeResource(viaEvent, asTheInboxWould);
  await deliver(viaEvent, 'heard-from');
  // Unsubscribing from a resource that has ended (or never ran) is no failure.
  await command(probe, { op: 'unsubscribe', resource: { kind: 'idv', id: `ended-${randomUUID()}` } }, 3);
  const state = await waitUntil('the event from the untracked resource', async () => {
    const s = await probe.query(probeStateQuery);
    return s.received.length === 1 && s;
  });
  expect(state.subscribed).toEqual([viaSubscribe, viaActivity, viaEvent]);
  const all = [viaSubscribe, viaActivity, viaEvent];
  await waitUntil('each resource polling', async () => (await Promise.all(all.map(historyOf))).every((events) => pollsCompleted(events).length >= 1), { timeoutMs: 30_000 });

  // Cancelled: unsubscribeAll runs from the cancelled scope.
  await probe.cancel();
  await expect(probe.result()).rejects.toThrow();

  for (const resource of all) {
    const ended = await resourceHandle(resource).result();
    expect({ resource, subscribers: ended.subscribers }).toEqual({ resource, subscribers: [] });
    const events = await historyOf(resource);
    const unsubscribed = signaled(events, 'unsubscribe');
    expect({ resource, unsubscribed: unsubscribed.length }).toEqual({ resource, unsubscribed: 1 });
    expect(pollsScheduled(events).filter((e) => idOf(e) > idOf(unsubscribed[0]!))).toEqual([]);
  }
});

/**
 * Issue 24: waiting costs almost nothing. The clock scaled down 28,800 times: reconcileAfter 1 hour
 * is 125 ms here, the 12-hour cap 1.5 s. Each poll's wait is read from the timer the resource started
 * before it (exact, whatever the machine's load, when started in the task that saw the last poll's
 * answer) and checked against the history's clock (never shorter).
 */
describe('polling backs off', () => {
  const SCALED_RECONCILE_AFTER_MS = 125;
  const SCALED_CAP_MS = 1_500;
  const timerMs = (event: Event) => tsToMs(event.timerStartedEventAttributes!.startToFireTimeout);
  /** Each poll, with the timer it waited on and the time since the resource's last activity (a poll, a subscription, a delivery). */
  function pollWaits(events: Event[]): { timerMs: number; sinceLastMs: number }[] {
    const waits: { timerMs: number; sinceLastMs: number }[] = [];
    let lastTimer: Event | undefined;
    let lastActivityAt = 0;
    const polls = new Set(pollsCompleted(events).map(idOf));
    for (const event of events) {
      if (event.timerStartedEventAttributes) lastTimer = event;
      if (polls.has(idOf(event))) waits.push({ timerMs: timerMs(lastTimer!), sinceLastMs: timeOf(event) - lastActivityAt });
      if (event.workflowExecutionSignaledEventAttributes || polls.has(idOf(event))) lastActivityAt = timeOf(event);
    }
    return waits;
  }

  test('the first poll comes reconcileAfter after the subscription, each next one twice as long after the last, up to the cap; a delivery starts again from reconcileAfter', async () => {
    const resource = await pendingIdvResource();
    // Started with a retention longer than the test, so that quiet never ends it meanwhile.
    const handle = await stack.client.workflow.start(resourceWorkflow, { workflowId: resourceWorkflowId(resource), taskQueue: stack.temporal.taskQueue, args: [{ resource, retention: '2 minutes' }] });
    const probe = await startProbe();
    await command(probe, { op: 'subscribe', resource, reconcileAfter: `${SCALED_RECONCILE_AFTER_MS} milliseconds`, reconcileBackoffCap: `${SCALED_CAP_MS} milliseconds` }, 1);
    await waitUntil('six polls', async () => pollsCompleted(await historyOf(resource)).length >= 6, { timeoutMs: 40_000 });
    await deliver(resource, 'resets-the-backoff');
    await waitUntil('eight polls', async () => pollsCompleted(await historyOf(resource)).length >= 8, { timeoutMs: 20_000 });
    await command(probe, { op: 'unsubscribe', resource }, 2);

    const waits = pollWaits(await historyOf(resource)).slice(0, 8);
    const expected = [125, 250, 500, 1_000, 1_500, 1_500, /* after the delivery */ 125, 250];
    // The delivery's timer starts once its forward to the probe is done, so a little under 125 ms.
    const afterDelivery = waits[6]!.timerMs;
    expect(afterDelivery).toBeGreaterThan(0);
    expect(afterDelivery).toBeLessThanOrEqual(125);
    expect(waits.map((w, i) => (i === 6 ? 125 : w.timerMs))).toEqual(expected);
    waits.forEach((w, i) => expect({ poll: i + 1, waitedEnough: w.sinceLastMs >= expected[i]! }).toEqual({ poll: i + 1, waitedEnough: true }));
    // The patched path replays (docs/versioning.md): its marker at the first task, then these polls.
    await Worker.runReplayHistory({ workflowBundle: testWorkflowBundle(), dataConverter: dataConverterFor(stack.payloadKeys) }, await handle.fetchHistory());
    await handle.terminate('test done');
    await probe.signal(probeCommandSignal, { op: 'finish' });
  }, 90_000);

  /** Waits until the resource's next timer is its retention (days), not a poll's: it will not poll again. */
  async function pollsNoMore(resource: ResourceKey): Promise<Event[]> {
    return waitUntil(`${resourceWorkflowId(resource)} waiting on its retention only`, async () => {
      const events = await historyOf(resource);
      const unsubscribed = signaled(events, 'unsubscribe')[0];
      const retention = unsubscribed && events.find((e) => idOf(e) > idOf(unsubscribed) && e.timerStartedEventAttributes && timerMs(e) > 86_400_000);
      return retention ? events : undefined;
    }, { timeoutMs: 30_000 });
  }

  const startIdvStep = async () => {
    const personId = (await control('/persons', {})).person_id as string;
    const handle = await stack.client.workflow.start(identityVerificationWorkflow, {
      workflowId: `step/${randomUUID()}`,
      taskQueue: stack.temporal.taskQueue,
      args: [{ personId, deadline: '3 seconds', reconcileAfter: `${SCALED_RECONCILE_AFTER_MS} milliseconds`, reconcileBackoffCap: `${SCALED_CAP_MS} milliseconds` }],
    });
    const requestId = (await waitForStatus(handle, stepStatusQuery, (s) => s.state === 'waiting')).providerIds.request_id as string;
    const resource: ResourceKey = { kind: 'idv', id: requestId };
    await waitUntil('a first poll', async () => pollsCompleted(await historyOf(resource)).length >= 1, { timeoutMs: 20_000 });
    return { handle, resource };
  };

  test.each(['expired', 'cancelled'] as const)('a step that %s leaves its resource, which polls no more', async (ending) => {
    const { handle, resource } = await startIdvStep();
    if (ending === 'cancelled') await handle.cancel(); // as the journey cancels an attempt an operator waived or retried
    expect(await handle.result()).toMatchObject({ state: ending });

    const events = await pollsNoMore(resource);
    const unsubscribed = signaled(events, 'unsubscribe')[0]!;
    expect(pollsScheduled(events).filter((e) => idOf(e) > idOf(unsubscribed))).toEqual([]);
    await resourceHandle(resource).terminate('test done');
  }, 60_000);
});
