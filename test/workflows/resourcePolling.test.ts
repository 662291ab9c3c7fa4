/**
 * A resource polls only while a subscriber waits, and ends after its quiet
 * period measured from its last delivery or subscription, never from a poll. Real resource
 * workflows on the dev server against the simulator (pending IDV requests, so every poll answers
 * "not yet"); the subscriber is a probe holding the steps' resource inbox
 * (test/support/resourceInboxProbe.ts), on a worker of its own. Polls are counted where they
 * land, in the provider's request log: a poll is one activity whose retries are its schedule
 * (workflows/retryingPoll.ts), and the history shows only its first attempt.
 */
import { randomUUID } from 'node:crypto';
import type { WorkflowHandle } from '@temporalio/client';
import { tsToMs } from '@temporalio/common/lib/time';
import type { temporal } from '@temporalio/proto';
import { bundleWorkflowCode, NativeConnection, Worker } from '@temporalio/worker';
import { routes } from '../../activities/routes';
import { simulatorControl } from '../support/faultHarness/rawProviderApi';
import { isPoll } from '../../bench/journeyCost/polls';
import { pollsAtProvider } from '../../bench/journeyCost/providerPolls';
import { waitForStatus } from '../../cli/watchStatus';
import { startStack, type Stack } from '../../cli/stack';
import {
  deliverSignal,
  resourceStateQuery,
  resourceWorkflowId,
  subscribeSignal,
  type ResourceDelivery,
  type Subscription,
} from '../../client/resourceMessages';
import { dataConverterFor } from '../../codec/dataConverter';
import { workflowBundleOptions } from '../../worker/workflowBundle';
import { stepStatusQuery } from '../../client/stepMessages';
import { identityVerificationRequestSchema, type ResourceKey } from '../../provider';
import { identityVerificationWorkflow } from '../../workflows/identityVerificationWorkflow';
import { resourceWorkflow } from '../../workflows/resourceWorkflow';
import { testCaseFileOption, testDirectory, testTemporalConfig, testWorkflowBundle } from '../setup/testEnvironment';
import {
  probeCommandSignal,
  probeStateQuery,
  resourceInboxProbe,
  type ProbeCommand,
  type ProbeState,
} from '../support/resourceInboxProbe';
import { waitUntil } from '../support/waitUntil';

type Event = temporal.api.history.v1.IHistoryEvent;

/** The resources' retention here: quiet this long after the last delivery or subscription, they end. */
const RETENTION_MS = 4_000;
/**
 * Resources that outlive their test (a retention no set-up reaches on a loaded machine): the
 * inbox test's, which must still be running when their subscriber unsubscribes.
 */
const outliving = new Set<string>();
const OUTLIVING_RETENTION_MS = 10 * 60_000;
const RECONCILE_AFTER = '500 milliseconds';

let stack: Stack;
let probeWorker: Worker;
let probeRun: Promise<void>;
const probeQueue = `probe-${randomUUID()}`;

beforeAll(async () => {
  const [started, probeBundle] = await Promise.all([
    startStack({
      temporal: testTemporalConfig(),
      caseFile: testCaseFileOption(),
      workflowBundle: testWorkflowBundle(),
      simulatorSeed: 2007,
      spoolDir: testDirectory('spool'),
      processingDelayMs: 50,
    }),
    bundleWorkflowCode(workflowBundleOptions(require.resolve('../support/resourceInboxProbe'))),
  ]);
  stack = started;
  probeWorker = await Worker.create({
    connection: await NativeConnection.connect({ address: stack.temporal.address }),
    namespace: stack.temporal.namespace,
    taskQueue: probeQueue,
    dataConverter: dataConverterFor(stack.payloadKeys),
    workflowBundle: { code: probeBundle.code },
    // The inbox's `subscribe` activity, starting the resource with this test's retention.
    activities: {
      subscribeToResource: ({ resource, subscription }: { resource: ResourceKey; subscription: Subscription }) =>
        subscribeResource(resource, subscription),
    },
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
  const created = await stack.provider.call({
    route: routes.createIdentityVerification,
    params: { personId },
    body: {},
    schema: identityVerificationRequestSchema,
  });
  return { kind: 'idv', id: created.request_id };
}

/** What the bridge and the activities do (signalWithStart), with this test's retention. */
async function subscribeResource(resource: ResourceKey, subscription: Subscription): Promise<void> {
  await stack.client.workflow.signalWithStart(resourceWorkflow, {
    workflowId: resourceWorkflowId(resource),
    taskQueue: stack.temporal.taskQueue,
    args: [
      { resource, retention: `${outliving.has(resource.id) ? OUTLIVING_RETENTION_MS : RETENTION_MS} milliseconds` },
    ],
    signal: subscribeSignal,
    signalArgs: [subscription],
  });
}

const resourceHandle = (resource: ResourceKey) =>
  stack.client.workflow.getHandle<typeof resourceWorkflow>(resourceWorkflowId(resource));

function deliver(resource: ResourceKey, name: string): Promise<void> {
  const now = new Date().toISOString();
  const delivery: ResourceDelivery = {
    dedupeId: `${name}|Test.Unknown|${randomUUID()}`,
    eventType: 'Test.Unknown',
    batchId: null,
    webhookId: 'w',
    datetimeSent: now,
    receivedAt: now,
    parse: 'unknown-event-type',
    data: {},
  };
  return resourceHandle(resource).signal(deliverSignal, delivery);
}

const startProbe = () =>
  stack.client.workflow.start(resourceInboxProbe, {
    workflowId: `probe/${randomUUID()}`,
    taskQueue: probeQueue,
    args: [],
  });

/** Sends a command and waits until the probe has carried out `done` of them. */
async function command(
  probe: WorkflowHandle<typeof resourceInboxProbe>,
  sent: ProbeCommand,
  done: number,
): Promise<ProbeState> {
  await probe.signal(probeCommandSignal, sent);
  return waitUntil(`the probe carrying out ${sent.op}`, async () => {
    const state = await probe.query(probeStateQuery);
    return state.done >= done && state;
  });
}

const historyOf = async (resource: ResourceKey): Promise<Event[]> =>
  (await resourceHandle(resource).fetchHistory()).events ?? [];
const timeOf = (event: Event) => tsToMs(event.eventTime);
const idOf = (event: Event) => Number(event.eventId);
const signaled = (events: Event[], name: string) =>
  events.filter((e) => e.workflowExecutionSignaledEventAttributes?.signalName === name);
/** Each poll that the history shows: the polling activity scheduled (its retries are not events). */
const pollsScheduled = (events: Event[]) => events.filter(isPoll);
/** When each poll of the resource reached the provider (ms, its request log). */
const pollTimes = (resource: ResourceKey): number[] => pollsAtProvider(stack.simulator.store.requests, resource);
/**
 * When the workflow had taken in its signal `name` (its first workflow task completed after it):
 * from then on the polling it cancelled gets no new attempt. A poll's read that had started just
 * before may still land a moment later: `GRACE_MS`.
 */
function handledAt(events: Event[], name: string): number {
  const signal = signaled(events, name)[0]!;
  return timeOf(events.find((e) => idOf(e) > idOf(signal) && e.workflowTaskCompletedEventAttributes)!);
}
const GRACE_MS = 250;
/** The event that closed the activity `scheduled` (cancelled, or its last attempt ended), if any yet. */
const closeOf = (events: Event[], scheduled: Event): Event | undefined =>
  events.find((e) => {
    const closed =
      e.activityTaskCanceledEventAttributes ??
      e.activityTaskFailedEventAttributes ??
      e.activityTaskCompletedEventAttributes ??
      e.activityTaskTimedOutEventAttributes;
    return closed !== undefined && closed !== null && Number(closed.scheduledEventId) === idOf(scheduled);
  });
/**
 * When the resource's polling had stopped after `event` was handled: the close of the poll under
 * way then (the server runs no attempt of it after), or the handling itself when none was under
 * way. Undefined while that poll has not closed yet.
 */
function pollingStoppedAfter(events: Event[], event: Event): number | undefined {
  const lastPoll = pollsScheduled(events)
    .filter((e) => idOf(e) < idOf(event))
    .at(-1);
  const close = lastPoll && closeOf(events, lastPoll);
  if (lastPoll === undefined || (close !== undefined && idOf(close) < idOf(event)))
    return handledAt(events, event.workflowExecutionSignaledEventAttributes!.signalName!);
  return close && timeOf(close);
}

test('a resource whose only subscriber unsubscribes stops polling, and ends its quiet period after its last delivery although it polled', async () => {
  const resource = await pendingIdvResource();
  const probe = await startProbe();
  // Polling without backing off (the cap is reconcileAfter): several polls fit in the quiet period.
  await command(
    probe,
    { op: 'subscribe', resource, reconcileAfter: RECONCILE_AFTER, reconcileBackoffCap: RECONCILE_AFTER },
    1,
  );
  await deliver(resource, 'last-delivery');
  await waitUntil(
    'the delivery forwarded to the probe',
    async () => (await probe.query(probeStateQuery)).received.length === 1,
  );
  // No outcome yet: the resource goes on polling after the delivery.
  const deliveredAt = timeOf(signaled(await historyOf(resource), 'deliver')[0]!);
  // Polls until well after the delivery, then the unsubscription, with the quiet period's last
  // seconds still to come: a resource that went on polling would poll in them.
  await waitUntil(
    'polls 1.5 s after the delivery',
    async () => pollTimes(resource).some((at) => at - deliveredAt >= 1_500),
    { timeoutMs: 30_000 },
  );

  await command(probe, { op: 'unsubscribe', resource }, 2);
  const ended = await resourceHandle(resource).result();

  expect(ended.subscribers).toEqual([]);
  const events = await historyOf(resource);
  const unsubscribed = signaled(events, 'unsubscribe');
  expect(unsubscribed).toHaveLength(1);
  expect(pollsScheduled(events).filter((e) => idOf(e) > idOf(unsubscribed[0]!))).toEqual([]);
  expect(pollTimes(resource).filter((at) => at > handledAt(events, 'unsubscribe') + GRACE_MS)).toEqual([]);
  const completedAt = timeOf(events.at(-1)!);
  const lastPollAt = Math.max(...pollTimes(resource));
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
  await waitUntil('two polls', async () => pollTimes(resource).length >= 2, { timeoutMs: 30_000 });
  // The step ends without unsubscribing (as a terminated step does).
  await probe.terminate('closed without unsubscribing');
  await deliver(resource, 'to-a-closed-subscriber');

  const ended = await resourceHandle(resource).result();

  expect(ended.subscribers).toEqual([]);
  const events = await historyOf(resource);
  const forwardFailed = events.filter((e) => e.signalExternalWorkflowExecutionFailedEventAttributes);
  expect(forwardFailed).toHaveLength(1);
  expect(pollsScheduled(events).filter((e) => idOf(e) > idOf(forwardFailed[0]!))).toEqual([]);
  expect(pollTimes(resource).filter((at) => at > timeOf(forwardFailed[0]!) + GRACE_MS)).toEqual([]);
  expect(timeOf(events.at(-1)!) - timeOf(signaled(events, 'deliver')[0]!)).toBeGreaterThanOrEqual(RETENTION_MS);
});

test('the inbox remembers the resources it subscribed to, tracked or heard from; cancelled, it unsubscribes from all of them', async () => {
  const [viaSubscribe, viaActivity, viaEvent] = await Promise.all([
    pendingIdvResource(),
    pendingIdvResource(),
    pendingIdvResource(),
  ]);
  for (const resource of [viaSubscribe, viaActivity, viaEvent]) outliving.add(resource.id);
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
  await waitUntil('each resource polling', async () => all.every((resource) => pollTimes(resource).length >= 1), {
    timeoutMs: 30_000,
  });

  // Cancelled: unsubscribeAll runs from the cancelled scope.
  await probe.cancel();
  await expect(probe.result()).rejects.toThrow();

  for (const resource of all) {
    // The unsubscribe taken in, and the poll under way then closed.
    const { events, stoppedAt } = await waitUntil(`${resource.id} polling no more after the unsubscribe`, async () => {
      const history = await historyOf(resource);
      const unsubscribe = signaled(history, 'unsubscribe')[0];
      const handled =
        unsubscribe && history.some((e) => idOf(e) > idOf(unsubscribe) && e.workflowTaskCompletedEventAttributes);
      const stopped = handled ? pollingStoppedAfter(history, unsubscribe) : undefined;
      return stopped !== undefined && { events: history, stoppedAt: stopped };
    });
    const unsubscribed = signaled(events, 'unsubscribe');
    expect({ resource, unsubscribed: unsubscribed.length }).toEqual({ resource, unsubscribed: 1 });
    const { subscribers } = await resourceHandle(resource).query(resourceStateQuery);
    expect({ resource, subscribers }).toEqual({ resource, subscribers: [] });
    expect(pollsScheduled(events).filter((e) => idOf(e) > idOf(unsubscribed[0]!))).toEqual([]);
    // A read that had started before the unsubscribe was handled may still land within the grace.
    await waitUntil('the grace after polling stopped', () => Date.now() > stoppedAt + GRACE_MS);
    const graceEnds = handledAt(events, 'unsubscribe') + GRACE_MS;
    expect({ resource, later: pollTimes(resource).filter((at) => at > graceEnds) }).toEqual({
      resource,
      later: [],
    });
    await resourceHandle(resource).terminate('the test has what it needs');
  }
});

/**
 * Waiting costs almost nothing. The clock scaled down 3,600 times and the cap to 4 hours:
 * reconcileAfter 1 hour is a second here, the cap 4 s (the dev server fires timers and retries
 * about a second apart at the least, so a finer clock would measure the server). The first poll
 * waits on a timer, the history's (exact); the polls after it are its activity's retries, by the
 * retry policy the history records (exact), and the provider's request log shows each gap no
 * shorter than the schedule (a retry's backoff starts once the attempt before it has failed, after
 * its read reached the provider), nor as long as the schedule's next step.
 */
describe('polling backs off', () => {
  const SCALED_RECONCILE_AFTER_MS = 1_000;
  const SCALED_CAP_MS = 4_000;
  const timerMs = (event: Event) => tsToMs(event.timerStartedEventAttributes!.startToFireTimeout);
  const retryPolicyOf = (event: Event) => {
    const policy = event.activityTaskScheduledEventAttributes!.retryPolicy!;
    return {
      initialMs: tsToMs(policy.initialInterval),
      coefficient: policy.backoffCoefficient,
      maximumMs: tsToMs(policy.maximumInterval),
      maximumAttempts: policy.maximumAttempts ?? 0,
    };
  };
  /** The timer the resource started last before `event`. */
  const timerBefore = (events: Event[], event: Event) =>
    events.filter((e) => idOf(e) < idOf(event) && e.timerStartedEventAttributes).at(-1)!;
  const gaps = (from: number, times: number[]) => times.map((at, i) => at - (i === 0 ? from : times[i - 1]!));

  test('the first poll comes reconcileAfter after the subscription, each next one twice as long after the last, up to the cap; a delivery starts again from reconcileAfter', async () => {
    const resource = await pendingIdvResource();
    // Started with a retention longer than the test, so that quiet never ends it meanwhile.
    const handle = await stack.client.workflow.start(resourceWorkflow, {
      workflowId: resourceWorkflowId(resource),
      taskQueue: stack.temporal.taskQueue,
      args: [{ resource, retention: '2 minutes' }],
    });
    const probe = await startProbe();
    await command(
      probe,
      {
        op: 'subscribe',
        resource,
        reconcileAfter: `${SCALED_RECONCILE_AFTER_MS} milliseconds`,
        reconcileBackoffCap: `${SCALED_CAP_MS} milliseconds`,
      },
      1,
    );
    await waitUntil('five polls', async () => pollTimes(resource).length >= 5, { timeoutMs: 40_000 });
    await deliver(resource, 'resets-the-backoff');
    const deliveredAt = timeOf(signaled(await historyOf(resource), 'deliver')[0]!);
    await waitUntil(
      'two polls after the delivery',
      async () => pollTimes(resource).filter((at) => at > deliveredAt).length >= 2,
      { timeoutMs: 20_000 },
    );
    await command(probe, { op: 'unsubscribe', resource }, 2);

    const events = await historyOf(resource);
    const subscribedAt = timeOf(signaled(events, 'subscribe')[0]!);
    // One polling activity before the delivery and one after it, each with the schedule as its retry policy.
    const polls = pollsScheduled(events);
    expect(polls.map((p) => idOf(p) > idOf(signaled(events, 'deliver')[0]!))).toEqual([false, true]);
    for (const poll of polls)
      expect(retryPolicyOf(poll)).toEqual({
        initialMs: 2 * SCALED_RECONCILE_AFTER_MS,
        coefficient: 2,
        maximumMs: SCALED_CAP_MS,
        maximumAttempts: 0,
      });
    expect(timerMs(timerBefore(events, polls[0]!))).toBe(SCALED_RECONCILE_AFTER_MS);
    // The delivery's timer starts once its forward to the probe is done, so a little under reconcileAfter.
    const afterDelivery = timerMs(timerBefore(events, polls[1]!));
    expect(afterDelivery).toBeGreaterThan(0);
    expect(afterDelivery).toBeLessThanOrEqual(SCALED_RECONCILE_AFTER_MS);

    // At the provider: every gap at least the schedule's, and shorter than the next doubling's
    // (with half a second for the server's and the worker's lateness).
    const times = pollTimes(resource);
    const within = (gap: number, expected: number) => ({
      gap,
      atLeast: gap >= expected,
      shorterThanNext: gap < expected * 1.5 + 500,
    });
    const before = gaps(subscribedAt, times.filter((at) => at < deliveredAt).slice(0, 5));
    const after = gaps(deliveredAt, times.filter((at) => at > deliveredAt).slice(0, 2));
    const expected = [1_000, 2_000, 4_000, 4_000, 4_000];
    before.forEach((gap, i) =>
      expect({ poll: i + 1, ...within(gap, expected[i]!) }).toEqual({
        poll: i + 1,
        gap,
        atLeast: true,
        shorterThanNext: true,
      }),
    );
    expect(within(after[1]!, 2_000)).toEqual({ gap: after[1], atLeast: true, shorterThanNext: true });
    // The history of a resource that backed off replays on the workflow code.
    await Worker.runReplayHistory(
      { workflowBundle: testWorkflowBundle(), dataConverter: dataConverterFor(stack.payloadKeys) },
      await handle.fetchHistory(),
    );
    await handle.terminate('test done');
    await probe.signal(probeCommandSignal, { op: 'finish' });
  }, 90_000);

  /**
   * Waits until the resource has taken in its subscriber's leaving and has no poll pending: with no
   * subscriber left, nothing starts one again.
   */
  async function pollsNoMore(resource: ResourceKey): Promise<Event[]> {
    return waitUntil(
      `${resourceWorkflowId(resource)} polling no more`,
      async () => {
        const events = await historyOf(resource);
        const unsubscribed = signaled(events, 'unsubscribe')[0];
        if (
          !unsubscribed ||
          !events.some((e) => idOf(e) > idOf(unsubscribed) && e.workflowTaskCompletedEventAttributes)
        )
          return undefined;
        const pending = (await resourceHandle(resource).describe()).raw.pendingActivities ?? [];
        return pending.length === 0 ? events : undefined;
      },
      { timeoutMs: 30_000 },
    );
  }

  const startIdvStep = async () => {
    const personId = (await control('/persons', {})).person_id as string;
    const handle = await stack.client.workflow.start(identityVerificationWorkflow, {
      workflowId: `step/${randomUUID()}`,
      taskQueue: stack.temporal.taskQueue,
      args: [
        {
          personId,
          deadline: '3 seconds',
          reconcileAfter: `${SCALED_RECONCILE_AFTER_MS} milliseconds`,
          reconcileBackoffCap: `${SCALED_CAP_MS} milliseconds`,
        },
      ],
    });
    const requestId = (await waitForStatus(handle, stepStatusQuery, (s) => s.state === 'waiting')).providerIds
      .request_id as string;
    const resource: ResourceKey = { kind: 'idv', id: requestId };
    await waitUntil('a first poll', async () => pollTimes(resource).length >= 1, { timeoutMs: 20_000 });
    return { handle, resource };
  };

  test.each(['expired', 'cancelled'] as const)(
    'a step that %s leaves its resource, which polls no more',
    async (ending) => {
      const { handle, resource } = await startIdvStep();
      if (ending === 'cancelled') await handle.cancel(); // as the journey cancels an attempt an operator waived or retried
      expect(await handle.result()).toMatchObject({ state: ending });

      const events = await pollsNoMore(resource);
      const unsubscribed = signaled(events, 'unsubscribe')[0]!;
      expect(pollsScheduled(events).filter((e) => idOf(e) > idOf(unsubscribed))).toEqual([]);
      expect(pollTimes(resource).filter((at) => at > handledAt(events, 'unsubscribe') + GRACE_MS)).toEqual([]);
      // Its next wake is its quiet's end (days), never a poll's timer.
      expect(
        events.filter((e) => idOf(e) > idOf(unsubscribed) && e.timerStartedEventAttributes && timerMs(e) < 86_400_000),
      ).toEqual([]);
      await resourceHandle(resource).terminate('test done');
    },
    60_000,
  );
});
