/**
 * The throughput benchmark's baseline (`npm run bench:throughput`): workflows with empty bodies
 * that make Temporal do what a real onboarding journey makes it do, measured on the same dev server
 * in the same run, bundled into a worker of their own on their own task queue.
 *
 * The shape comes from the histories of the real journeys just measured (journeyShape.ts), so
 * the counts follow the real journey as it changes. The mapping:
 *
 * - `onboardCase` (client start)       → `baselineJourney` (client start). Starts its children wave
 *   by wave (the real journey starts its independent steps together and affordability once banking
 *   has completed; here a wave waits for the whole wave before it), counts the children's reports,
 *   runs its empty activities one as each child completes and the rest at the end, and sends its
 *   empty local activities without waiting for them (the real journey's read-model writes and LOS
 *   events: as many before the first child completes, the rest spread over the completions), then
 *   waits for them all before it completes, as the real one drains its writes.
 * - a step (child workflow)             → `baselineStep` (child workflow): its provider calls as
 *   empty activities before and after the wait, its subscriptions as an activity that
 *   signalWithStarts the mailbox (as the real `subscribeToResource` does), its wait for an event as a
 *   `condition` with a timeout (a timer, cancelled when the forwarded delivery arrives, as the
 *   real step's deadline is), its reports to the parent as signals sent without waiting, and its
 *   leaving its mailboxes as it ends as signals it waits for (the real step's `unsubscribeAll`).
 * - a resource workflow (signalWithStart) → `baselineMailbox` (signalWithStart): keeps deliveries
 *   from clients (the bridge's, sent here by the benchmark itself), replays them to a subscriber
 *   that comes late and forwards new ones to every subscriber that has not left, each as a
 *   signal (those the plan says the real one kept without forwarding, it keeps too); it waits
 *   under one long timer for its whole life (the real one's retention timer) and, like the real
 *   one, stays open after the journey completes.
 *
 * Not mirrored, because they are this project's choices rather than Temporal's price for the
 * shape: search attribute upserts, patch markers, payload encryption, status queries, the status
 * carried in each report and the continue-as-new checks. The activities and local activities are
 * empty: what the real ones do (provider calls, case-file writes) is the system's work.
 */
import {
  condition,
  executeChild,
  getExternalWorkflowHandle,
  proxyActivities,
  proxyLocalActivities,
  setHandler,
  sleep,
  workflowInfo,
} from '@temporalio/workflow';
import type { BaselineActivities } from './baselineActivities';
import {
  baselineDeliverSignal,
  baselineForwardSignal,
  baselineLeaveSignal,
  baselineReportSignal,
  baselineSubscribeSignal,
} from './baselineMessages';
import type { BaselineJourneyPlan, BaselineStepPlan } from './baselinePlan';

const { nothing, subscribe } = proxyActivities<BaselineActivities>({ startToCloseTimeout: '1 minute' });
const { nothing: nothingLocally } = proxyLocalActivities<BaselineActivities>({ startToCloseTimeout: '1 minute' });

/** Longer than any run of the benchmark: a timer that is always cancelled or left running. */
const LONG_WAIT = '1 day';

export async function baselineJourney(plan: BaselineJourneyPlan): Promise<number> {
  let reports = 0;
  setHandler(baselineReportSignal, () => {
    reports++;
  });
  const activities: Promise<void>[] = [];
  let activitiesLeft = plan.activities;
  let localLeft = plan.localActivities;
  const sendLocally = (count: number): void => {
    for (let i = 0; i < count && localLeft > 0; i++, localLeft--) activities.push(nothingLocally());
  };
  const localPerChild =
    plan.steps.length > 0 ? Math.floor((plan.localActivities - plan.localActivitiesAtStart) / plan.steps.length) : 0;
  const waves = [...new Set(plan.steps.map((s) => s.wave))].sort((a, b) => a - b);
  for (const [i, wave] of waves.entries()) {
    const children = plan.steps
      .filter((s) => s.wave === wave)
      .map((step) => executeChild(baselineStep, { workflowId: step.workflowId, args: [step] }));
    if (i === 0) sendLocally(plan.localActivitiesAtStart);
    await Promise.all(
      children.map(async (child) => {
        await child;
        sendLocally(localPerChild);
        if (activitiesLeft > 0) {
          activitiesLeft--;
          activities.push(nothing());
        }
      }),
    );
  }
  for (; activitiesLeft > 0; activitiesLeft--) activities.push(nothing());
  sendLocally(localLeft);
  await Promise.all(activities);
  return reports;
}

export async function baselineStep(plan: BaselineStepPlan): Promise<void> {
  let forwards = 0;
  setHandler(baselineForwardSignal, () => {
    forwards++;
  });
  const parent = workflowInfo().parent?.workflowId;
  let reportsLeft = plan.reports;
  const report = (): void => {
    if (reportsLeft <= 0 || !parent) return;
    reportsLeft--;
    void getExternalWorkflowHandle(parent)
      .signal(baselineReportSignal)
      .catch(() => undefined);
  };
  for (let i = 0; i < plan.activitiesBefore; i++) {
    await nothing();
    if (i === 0) report();
  }
  for (const mailbox of plan.mailboxes) await subscribe({ mailbox, subscriber: workflowInfo().workflowId });
  if (plan.forwardsAwaited > 0) {
    await condition(() => forwards >= plan.forwardsAwaited, LONG_WAIT);
    report();
  }
  for (let i = 0; i < plan.activitiesAfter; i++) await nothing();
  while (reportsLeft > 0) report();
  const me = workflowInfo().workflowId;
  await Promise.all(
    plan.leaves.map((mailbox) =>
      getExternalWorkflowHandle(mailbox)
        .signal(baselineLeaveSignal, me)
        .catch(() => undefined),
    ),
  );
}

export async function baselineMailbox(): Promise<void> {
  let deliveries = 0;
  const subscribers: string[] = [];
  const outbox: string[] = [];
  setHandler(baselineDeliverSignal, (forward) => {
    if (!forward) return;
    deliveries++;
    outbox.push(...subscribers);
  });
  setHandler(baselineSubscribeSignal, (subscriber) => {
    if (!subscribers.includes(subscriber)) subscribers.push(subscriber);
    for (let i = 0; i < deliveries; i++) outbox.push(subscriber);
  });
  setHandler(baselineLeaveSignal, (subscriber) => {
    if (subscribers.includes(subscriber)) subscribers.splice(subscribers.indexOf(subscriber), 1);
  });
  // One retention timer for the mailbox's life, as the real resource has, not one per wake-up.
  let retained = true;
  void sleep(LONG_WAIT).then(() => (retained = false));
  for (;;) {
    await condition(() => outbox.length > 0 || !retained);
    if (!retained) return;
    while (outbox.length > 0) {
      const to = outbox.shift() as string;
      await getExternalWorkflowHandle(to)
        .signal(baselineForwardSignal)
        .catch(() => undefined);
    }
  }
}
