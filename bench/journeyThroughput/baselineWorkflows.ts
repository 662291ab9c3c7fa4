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
 *   and runs its empty activities one as each child completes and the rest at the end (the real
 *   journey's LOS notifications: one per completed step and one for the journey).
 * - a step (child workflow)             → `baselineStep` (child workflow): its provider calls as
 *   empty activities before and after the wait, its subscriptions as an activity that
 *   signalWithStarts the mailbox (as the real `subscribeToResource` does), its wait for an event as a
 *   `condition` with a timeout (a timer, cancelled when the forwarded delivery arrives, as the
 *   real step's deadline is), and its reports to the parent as signals sent without waiting.
 * - a resource workflow (signalWithStart) → `baselineMailbox` (signalWithStart): keeps deliveries
 *   from clients (the bridge's, sent here by the benchmark itself), replays them to a subscriber
 *   that comes late and forwards new ones to every subscriber, each as a signal; between wake-ups
 *   it waits under a long timeout (the real one's retention timer) and, like the real one, stays
 *   open after the journey completes.
 *
 * Not mirrored, because they are this project's choices rather than Temporal's price for the
 * shape: search attribute upserts, patch markers, payload encryption, status queries, the status
 * carried in each report and the continue-as-new checks.
 */
import { condition, executeChild, getExternalWorkflowHandle, proxyActivities, setHandler, workflowInfo } from '@temporalio/workflow';
import type { BaselineActivities } from './baselineActivities';
import { baselineDeliverSignal, baselineForwardSignal, baselineReportSignal, baselineSubscribeSignal } from './baselineMessages';
import type { BaselineJourneyPlan, BaselineStepPlan } from './baselinePlan';

const { nothing, subscribe } = proxyActivities<BaselineActivities>({ startToCloseTimeout: '1 minute' });

/** Longer than any run of the benchmark: a timer that is always cancelled or left running. */
const LONG_WAIT = '1 day';

export async function baselineJourney(plan: BaselineJourneyPlan): Promise<number> {
  let reports = 0;
  setHandler(baselineReportSignal, () => {
    reports++;
  });
  const activities: Promise<void>[] = [];
  let activitiesLeft = plan.activities;
  const waves = [...new Set(plan.steps.map((s) => s.wave))].sort((a, b) => a - b);
  for (const wave of waves) {
    await Promise.all(
      plan.steps
        .filter((s) => s.wave === wave)
        .map(async (step) => {
          await executeChild(baselineStep, { workflowId: step.workflowId, args: [step] });
          if (activitiesLeft > 0) {
            activitiesLeft--;
            activities.push(nothing());
          }
        }),
    );
  }
  for (; activitiesLeft > 0; activitiesLeft--) activities.push(nothing());
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
    void getExternalWorkflowHandle(parent).signal(baselineReportSignal).catch(() => undefined);
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
}

export async function baselineMailbox(): Promise<void> {
  let deliveries = 0;
  const subscribers: string[] = [];
  const outbox: string[] = [];
  setHandler(baselineDeliverSignal, () => {
    deliveries++;
    outbox.push(...subscribers);
  });
  setHandler(baselineSubscribeSignal, (subscriber) => {
    if (!subscribers.includes(subscriber)) subscribers.push(subscriber);
    for (let i = 0; i < deliveries; i++) outbox.push(subscriber);
  });
  for (;;) {
    if (!(await condition(() => outbox.length > 0, LONG_WAIT))) return;
    while (outbox.length > 0) {
      const to = outbox.shift() as string;
      await getExternalWorkflowHandle(to)
        .signal(baselineForwardSignal)
        .catch(() => undefined);
    }
  }
}
