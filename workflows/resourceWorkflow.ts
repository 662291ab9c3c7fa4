/**
 * One workflow per provider resource, `resource/<kind>/<id>` (docs/architecture.md): a mailbox that the
 * bridge and the journeys both reach with signalWithStart, so arrival order never matters. It
 * dedupes deliveries, keeps the event log (a query), forwards every event to every subscriber
 * (replaying past events to late ones), asks the provider when a subscriber waits and no webhook
 * came in time (the provider never retries a lost delivery), continues as new before its history
 * grows large or when a newer build is current (Worker Versioning), and ends after a retention
 * period of quiet.
 *
 * Polling ends with its need: only while a subscriber waits. A step unsubscribes when it ends
 * (`unsubscribe`), and a subscriber found closed while forwarding is dropped. Quiet is measured
 * from the last delivery or subscription, never from a poll: a resource that polls still ends.
 *
 * One forward per occurrence (not one for the parent and one for the child delivery), to live
 * subscribers and to a late one alike; no more polling once the resource's terminal event has come
 * (resourceSettlement.ts), nor ever for resources the provider cannot be asked about. A settled
 * resource whose outcome has reached its subscribers ends after an hour of quiet
 * (`resourceQuietAfterOutcome`): the provider never sends a delivery twice, and whatever still
 * comes late starts a new run, which keeps it.
 *
 * Polls back off (pollBackoff.ts): the first `reconcileAfter` after the last delivery or
 * subscription, each further one twice as long after the one before, up to
 * `reconcileBackoffCap`; a delivery or subscription starts again from `reconcileAfter`. The first
 * poll waits for a timer; it and the polls after it are one activity whose retry policy is that
 * schedule (retryingPoll.ts): an attempt costs one billable action and no event. A delivery, a
 * subscription or the last subscriber leaving cancels it.
 */
import { msToNumber } from '@temporalio/common/lib/time';
import {
  condition,
  getExternalWorkflowHandle,
  log,
  makeContinueAsNewFunc,
  setHandler,
  upsertSearchAttributes,
  workflowInfo,
} from '@temporalio/workflow';
import { caseIdSearchAttribute } from '../client/searchAttributes';
import { defaultDeadlines, resourceQuietAfterOutcome } from '../client/deadlines';
import { pollable, settlesResource } from './resourceSettlement';
import { createSightings } from './resourceSighting';
import { pollInterval } from './pollBackoff';
import { startRetryingPoll, type RetryingPoll, type SettledPoll } from './retryingPoll';
import {
  deliverSignal,
  resourceEventSignal,
  resourceStateQuery,
  subscribeSignal,
  unsubscribeSignal,
  type ResourceDelivery,
  type ResourceState,
  type ResourceWorkflowInput,
} from '../client/resourceMessages';

export type { ResourceWorkflowInput };

interface Outgoing {
  to: string;
  delivery: ResourceDelivery;
}

/** How many events an unrouted resource keeps: enough for an operator to see what arrives lately. */
const UNROUTED_LOG_LIMIT = 500;

export async function resourceWorkflow(input: ResourceWorkflowInput): Promise<ResourceState> {
  const state: ResourceState = {
    resource: input.resource,
    events: input.carried?.events ?? [],
    occurrences: input.carried?.occurrences ?? 0,
    subscribers: input.carried?.subscribers ?? [],
    duplicatesIgnored: input.carried?.duplicatesIgnored ?? 0,
    eventsDropped: input.carried?.eventsDropped,
  };
  const seen = new Set(state.events.map((e) => e.dedupeId));
  const outbox: Outgoing[] = [];
  let reconcileAfterMs = input.carried?.reconcileAfterMs;
  let reconcileBackoffCapMs = input.carried?.reconcileBackoffCapMs;
  // Polls that found nothing since the last delivery or subscription: how far the next one backs off.
  let pollsSinceActivity = input.carried?.pollsSinceActivity ?? 0;
  // Settled: the provider said the resource reached its outcome; no more polling.
  let settled = input.carried?.settled ?? false;
  // Outcome told: settled, and a subscriber has been sent the log since (a subscriber, not the
  // subscribers list: a step that has closed with its outcome is dropped from it).
  let outcomeTold = input.carried?.outcomeTold ?? false;
  let quietAfterOutcomeMs = input.carried?.quietAfterOutcomeMs;
  // The last delivery or subscription: quiet (retention, quiet after outcome) counts from it.
  let lastActivity = input.carried?.lastActivityAt ?? Date.now();
  // The last poll: the next one is due `reconcileAfterMs` after it or after the last activity,
  // whichever came later. Apart from lastActivity, so that polling never keeps the resource alive.
  let lastPoll = input.carried?.lastPollAt;
  // Wake the loop even with nothing to send: a subscription changes when to poll, and a delivery
  // grows the history (a workflow nobody subscribes to, such as unrouted deliveries, must still
  // reach the continue-as-new check).
  let wake = false;
  // The poll under way: one activity whose retries are the polls (retryingPoll.ts).
  let polling: RetryingPoll | undefined;
  const stopPolling = (): void => {
    polling?.cancel();
    polling = undefined;
  };

  // Deliveries nobody waited for: recorded as sightings after a grace (resourceSighting.ts).
  const sightings = createSightings(input.resource);

  const record = (delivery: ResourceDelivery): void => {
    if (seen.has(delivery.dedupeId)) {
      state.duplicatesIgnored++;
      return;
    }
    seen.add(delivery.dedupeId);
    const sameOccurrence = delivery.batchId !== null && state.events.some((e) => e.batchId === delivery.batchId);
    // One forward per occurrence. A parent and its child delivery tell a step the same thing (the
    // first settles it), and each forward costs a signal and a workflow task on both sides. A later
    // delivery still goes out when the first of its occurrence was not valid.
    const told = occurrenceTold(state.events, state.events.length, delivery);
    if (!sameOccurrence) state.occurrences++;
    state.events.push(delivery);
    if (state.resource.kind === 'unrouted') dropOldest(state, seen);
    if (settlesResource(state.resource.kind, delivery)) settled = true;
    lastActivity = Date.now();
    pollsSinceActivity = 0;
    wake = true;
    // Settled, or the schedule starts again from reconcileAfter (the loop starts a new poll).
    stopPolling();
    if (!told) for (const to of state.subscribers) outbox.push({ to, delivery });
    if (state.subscribers.length === 0) sightings.seen(delivery);
  };

  setHandler(deliverSignal, record);

  setHandler(
    subscribeSignal,
    ({ workflowId, caseId, reconcileAfterMs: after, reconcileBackoffCapMs: cap, quietAfterOutcomeMs: quiet }) => {
      if (!state.subscribers.includes(workflowId)) state.subscribers.push(workflowId);
      sightings.claimed();
      if (caseId) carryCaseId(caseId);
      if (after !== undefined) reconcileAfterMs = Math.min(reconcileAfterMs ?? after, after);
      if (cap !== undefined) reconcileBackoffCapMs = Math.min(reconcileBackoffCapMs ?? cap, cap);
      if (quiet !== undefined) quietAfterOutcomeMs = Math.min(quietAfterOutcomeMs ?? quiet, quiet);
      lastActivity = Date.now();
      // A new need (a retried step's): its first poll comes reconcileAfter from now, as the first one did.
      pollsSinceActivity = 0;
      wake = true;
      stopPolling();
      // Replay the whole log: a subscriber that came late, or re-subscribes, misses nothing; one
      // delivery per occurrence, as live ones are forwarded.
      state.events.forEach((delivery, index) => {
        if (!occurrenceTold(state.events, index, delivery)) outbox.push({ to: workflowId, delivery });
      });
    },
  );

  // No wake: the loop reads the subscribers again when its timer fires, and then neither polls
  // for a resource nobody waits on nor counts the unsubscription as activity.
  setHandler(unsubscribeSignal, ({ workflowId }) => {
    state.subscribers = state.subscribers.filter((s) => s !== workflowId);
    // Nobody waits: a poll under way ends here (the loop's timer is the quiet's, not a poll's).
    if (state.subscribers.length === 0) stopPolling();
  });

  setHandler(resourceStateQuery, () => state);

  const retentionMs = msToNumber(input.retention ?? defaultDeadlines.resourceRetention);
  const inputQuietMs = msToNumber(input.quietAfterOutcome ?? resourceQuietAfterOutcome);
  const defaultCapMs = msToNumber(defaultDeadlines.reconcileBackoffCap);
  const nextPollInterval = (after: number): number =>
    pollInterval(after, reconcileBackoffCapMs ?? defaultCapMs, pollsSinceActivity);
  // Read from the state each time: a subscriber can leave while the loop waits.
  const nextPollAt = (): number => {
    const pollDue =
      polling === undefined &&
      reconcileAfterMs !== undefined &&
      !settled &&
      state.subscribers.length > 0 &&
      pollable(state.resource.kind);
    return pollDue
      ? Math.max(lastActivity, lastPoll ?? lastActivity) + nextPollInterval(reconcileAfterMs as number)
      : Number.POSITIVE_INFINITY;
  };
  const quietUntil = (): number =>
    lastActivity + (outcomeTold ? Math.min(retentionMs, quietAfterOutcomeMs ?? inputQuietMs) : retentionMs);
  const workQueued = (): boolean => outbox.length > 0 || wake;
  for (;;) {
    const wakeAt = Math.min(nextPollAt(), quietUntil(), sightings.dueAt());
    // Work queued: go on at once. A wait under a timeout costs a scope, a timer and a race, which
    // a turn with work queued would only start to cancel.
    const busy = workQueued() || (await condition(workQueued, Math.max(1, wakeAt - Date.now())));
    wake = false;
    if (busy) {
      const told = await flush(outbox, state);
      if (settled && told > 0) outcomeTold = true;
    } else if (Date.now() >= sightings.dueAt()) {
      await sightings.record();
    } else if (Date.now() >= nextPollAt()) {
      polling = startRetryingPoll(
        state.resource,
        {
          reconcileAfterMs: reconcileAfterMs as number,
          capMs: reconcileBackoffCapMs ?? defaultCapMs,
          pollsBefore: pollsSinceActivity,
        },
        (answer) => {
          polling = undefined;
          settled = true;
          lastPoll = Date.now();
          record(polledDelivery(answer));
        },
        (error) => {
          // Not expected (the policy retries without end): the next poll comes by the timer.
          log.warn('polling ended without an answer; will poll again', {
            resource: state.resource,
            error: String(error),
          });
          polling = undefined;
          lastPoll = Date.now();
          pollsSinceActivity++;
          wake = true;
        },
      );
    } else if (Date.now() >= quietUntil()) {
      stopPolling();
      return state;
    }
    const info = workflowInfo();
    const longHistory =
      input.continueAsNewAtHistoryLength !== undefined && info.historyLength >= input.continueAsNewAtHistoryLength;
    // The deployment's current version is no longer the one this run is pinned to: the next run
    // starts there. Not before the sightings waiting for their grace are recorded (they are not
    // carried), which a history that grows large cannot wait for.
    const newerBuild = info.targetWorkerDeploymentVersionChanged && sightings.dueAt() === Number.POSITIVE_INFINITY;
    // Not while a poll is under way: its attempts add nothing to the history, and the next
    // delivery or subscription, which grows it, ends the poll first.
    if ((info.continueAsNewSuggested || longHistory || newerBuild) && outbox.length === 0 && polling === undefined) {
      const { resource, ...carried } = state;
      await continueOnCurrentVersion({
        ...input,
        resource,
        carried: {
          ...carried,
          reconcileAfterMs,
          reconcileBackoffCapMs,
          pollsSinceActivity,
          settled,
          outcomeTold,
          quietAfterOutcomeMs,
          lastActivityAt: lastActivity,
          lastPollAt: lastPoll,
        },
      });
    }
  }
}

/**
 * Continues as new. Under Worker Versioning the next run's first task goes to the deployment's
 * current version, where the run then pins (versioningBehaviors.ts); without it the next run
 * would inherit this one's version, and a resource that deliveries keep alive would never leave
 * the build that started it. An unversioned worker sets no behaviour, as it declares none.
 */
function continueOnCurrentVersion(...args: Parameters<typeof resourceWorkflow>): Promise<never> {
  const versioned = Boolean(workflowInfo().currentDeploymentVersion?.deploymentName);
  return makeContinueAsNewFunc<typeof resourceWorkflow>(versioned ? { initialVersioningBehavior: 'AUTO_UPGRADE' } : {})(
    ...args,
  );
}

/**
 * A resource started by a subscription carries its case from the start; one the bridge started (a
 * delivery that came first) learns it from its first subscriber, so the case's workflows are listed
 * together all the same.
 */
function carryCaseId(caseId: string): void {
  if (workflowInfo().typedSearchAttributes.get(caseIdSearchAttribute) !== undefined) return;
  upsertSearchAttributes([{ key: caseIdSearchAttribute, value: caseId }]);
}

/** Whether a valid delivery of the same occurrence (batch) comes before `index` in the log. */
function occurrenceTold(events: readonly ResourceDelivery[], index: number, delivery: ResourceDelivery): boolean {
  if (delivery.batchId === null) return false;
  for (let i = 0; i < index; i++)
    if (events[i]!.batchId === delivery.batchId && events[i]!.parse === 'known') return true;
  return false;
}

/**
 * Keeps an unrouted log to its last UNROUTED_LOG_LIMIT events. Their dedupe ids go too: `seen` is
 * rebuilt from the log at continue-as-new anyway, and a bounded log needs a bounded set.
 */
function dropOldest(state: ResourceState, seen: Set<string>): void {
  const excess = state.events.length - UNROUTED_LOG_LIMIT;
  if (excess <= 0) return;
  for (const dropped of state.events.splice(0, excess)) seen.delete(dropped.dedupeId);
  state.eventsDropped = (state.eventsDropped ?? 0) + excess;
}

/** The `polled` event a settled answer becomes. */
function polledDelivery(result: SettledPoll): ResourceDelivery {
  const now = new Date(Date.now()).toISOString();
  return {
    dedupeId: `poll|${result.eventType}`,
    eventType: result.eventType,
    batchId: null,
    webhookId: '',
    datetimeSent: now,
    receivedAt: now,
    parse: 'polled',
    data: result.data,
  };
}

/** Sends what is queued; answers how many signals reached a subscriber. */
async function flush(outbox: Outgoing[], state: ResourceState): Promise<number> {
  let told = 0;
  while (outbox.length > 0) {
    const { to, delivery } = outbox.shift() as Outgoing;
    if (!state.subscribers.includes(to)) continue;
    try {
      await getExternalWorkflowHandle(to).signal(resourceEventSignal, { resource: state.resource, delivery });
      told++;
    } catch (error) {
      // The subscriber has closed: it needs nothing more from us.
      log.info('dropping closed subscriber', { subscriber: to, error: String(error) });
      state.subscribers = state.subscribers.filter((s) => s !== to);
    }
  }
  return told;
}
