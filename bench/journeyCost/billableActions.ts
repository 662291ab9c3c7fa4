/**
 * Temporal Cloud billable actions of one workflow run, counted from its history by Temporal's
 * published rules ("Temporal Cloud Actions", docs.temporal.io/cloud/actions; the source read was
 * temporalio/documentation docs/evaluate/cloud/actions.mdx at 24afc58). What a history cannot show
 * is said in `notInHistory` and counted by whoever can see it.
 */
import { temporal } from '@temporalio/proto';

const T = temporal.api.enums.v1.EventType;
type Event = temporal.api.history.v1.IHistoryEvent;

/**
 * List price: $50 per million actions, Pay-As-You-Go, the first 5M of a month (every volume on the
 * Developer plan; cheaper tiers above 5M on the others). docs.temporal.io/cloud/pricing
 * (temporalio/documentation docs/evaluate/cloud/pricing.mdx at 0217b71).
 */
export const LIST_PRICE_PER_MILLION_ACTIONS_USD = 50;

export const dollarsFor = (actions: number): number => (actions * LIST_PRICE_PER_MILLION_ACTIONS_USD) / 1_000_000;

/** Actions by what caused them. */
export interface Actions {
  /** Workflow started: client start, signal-with-start, child, continue-as-new (each run's first event). */
  workflowStarts: number;
  /** A child's start as the parent records it: the intent, beside the child's own start (two actions per child). */
  childStartIntents: number;
  /** Signals received, from a client or another workflow; a signal-with-start's is in its start. */
  signals: number;
  /** Updates accepted (a rejected one counts too, but leaves no event). */
  updates: number;
  /** Activities scheduled. */
  activities: number;
  /** Activity attempts after the first (the started event records the last attempt's number). */
  activityRetries: number;
  /** Activity heartbeats that reached the server: an estimate, see `heartbeatsOf`. */
  heartbeats: number;
  /** Timers started, `condition` with a timeout included. */
  timers: number;
  /**
   * Search attribute upserts (those given at start are free, and so is `TemporalChangeVersion`,
   * which the SDK upserts with each patch).
   */
  searchAttributeUpserts: number;
  /**
   * Local activities: all the markers of one workflow task count once, their retries besides. Patch
   * markers are not counted: the rules bill markers as "Record Activity Markers", and exempt
   * versioning's own upsert; that patch markers are free is this project's reading of them.
   */
  markers: number;
  /** Workflow execution options updated, resets. */
  other: number;
}

export const noActions = (): Actions => ({
  workflowStarts: 0,
  childStartIntents: 0,
  signals: 0,
  updates: 0,
  activities: 0,
  activityRetries: 0,
  heartbeats: 0,
  timers: 0,
  searchAttributeUpserts: 0,
  markers: 0,
  other: 0,
});

export const totalOf = (actions: Actions): number => Object.values(actions).reduce((sum, n) => sum + n, 0);

export function addActions(into: Actions, more: Actions): Actions {
  for (const key of Object.keys(into) as (keyof Actions)[]) into[key] += more[key];
  return into;
}

/**
 * Not counted from a history: queries (the journey makes none; a reader's cost, bench:looking) and
 * rejected updates.
 */
export const notInHistory = 'queries and rejected updates';

export function billableActions(events: readonly Event[]): Actions {
  const actions = noActions();
  let markersThisTask = false;
  for (const [index, event] of events.entries()) {
    switch (event.eventType) {
      case T.EVENT_TYPE_WORKFLOW_EXECUTION_STARTED:
        actions.workflowStarts++;
        break;
      case T.EVENT_TYPE_WORKFLOW_EXECUTION_SIGNALED:
        // Signal-with-start that started the run: one action for both (its signal is the second event).
        if (!(index === 1 && events[0]?.eventType === T.EVENT_TYPE_WORKFLOW_EXECUTION_STARTED)) actions.signals++;
        break;
      case T.EVENT_TYPE_START_CHILD_WORKFLOW_EXECUTION_INITIATED:
        actions.childStartIntents++;
        break;
      case T.EVENT_TYPE_WORKFLOW_EXECUTION_UPDATE_ACCEPTED:
      case T.EVENT_TYPE_WORKFLOW_EXECUTION_UPDATE_REJECTED:
        actions.updates++;
        break;
      case T.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED:
        actions.activities++;
        break;
      case T.EVENT_TYPE_ACTIVITY_TASK_STARTED:
        actions.activityRetries += Math.max(0, (event.activityTaskStartedEventAttributes?.attempt ?? 1) - 1);
        break;
      case T.EVENT_TYPE_TIMER_STARTED:
        actions.timers++;
        break;
      case T.EVENT_TYPE_UPSERT_WORKFLOW_SEARCH_ATTRIBUTES:
        if (!onlyVersioning(event)) actions.searchAttributeUpserts++;
        break;
      case T.EVENT_TYPE_WORKFLOW_TASK_COMPLETED:
        markersThisTask = false;
        actions.markers += Number(
          event.workflowTaskCompletedEventAttributes?.meteringMetadata?.nonfirstLocalActivityExecutionAttempts ?? 0,
        );
        break;
      case T.EVENT_TYPE_MARKER_RECORDED:
        if (!isLocalActivityMarker(event)) break;
        if (!markersThisTask) actions.markers++;
        markersThisTask = true;
        break;
      case T.EVENT_TYPE_WORKFLOW_EXECUTION_OPTIONS_UPDATED:
        actions.other++;
        break;
      case T.EVENT_TYPE_WORKFLOW_TASK_FAILED:
        if (
          event.workflowTaskFailedEventAttributes?.cause ===
          temporal.api.enums.v1.WorkflowTaskFailedCause.WORKFLOW_TASK_FAILED_CAUSE_RESET_WORKFLOW
        )
          actions.other++;
        break;
      default:
        break;
    }
  }
  actions.heartbeats = heartbeatsOf(events);
  return actions;
}

/** The marker sdk-core records for a local activity's result (a patch's is `core_patch`). */
export const isLocalActivityMarker = (event: Event): boolean =>
  event.markerRecordedEventAttributes?.markerName === 'core_local_activity';

/** An upsert of `TemporalChangeVersion` alone (the SDK's, with a patch marker): exempt from actions. */
function onlyVersioning(event: Event): boolean {
  const fields = Object.keys(
    event.upsertWorkflowSearchAttributesEventAttributes?.searchAttributes?.indexedFields ?? {},
  );
  return fields.length > 0 && fields.every((name) => name === 'TemporalChangeVersion');
}

/**
 * Heartbeats are not in a history. An activity scheduled with a heartbeat timeout is one of the
 * project's provider calls, which heartbeat from their start (activities/activityCall.ts); the SDK
 * sends the first heartbeat of an attempt at once and then at most one per 80% of the timeout. So:
 * one per attempt, plus one per 80% of the timeout the last attempt ran (earlier attempts' lengths
 * are not recorded; they are counted as short). An upper bound for short calls: a call that ends
 * before its first heartbeat is sent sends none.
 */
function heartbeatsOf(events: readonly Event[]): number {
  const throttleMs = new Map<string, number>();
  let heartbeats = 0;
  const startedAt = new Map<string, number>();
  for (const event of events) {
    const id = String(event.eventId);
    const scheduled = event.activityTaskScheduledEventAttributes;
    const timeout = scheduled?.heartbeatTimeout;
    if (timeout && (Number(timeout.seconds ?? 0) > 0 || (timeout.nanos ?? 0) > 0))
      throttleMs.set(id, 0.8 * (Number(timeout.seconds ?? 0) * 1000 + (timeout.nanos ?? 0) / 1e6));
    const started = event.activityTaskStartedEventAttributes;
    if (started && throttleMs.has(String(started.scheduledEventId))) {
      heartbeats += Math.max(1, started.attempt ?? 1);
      startedAt.set(String(started.scheduledEventId), eventTimeMs(event));
    }
    const closed =
      event.activityTaskCompletedEventAttributes ??
      event.activityTaskFailedEventAttributes ??
      event.activityTaskCanceledEventAttributes ??
      event.activityTaskTimedOutEventAttributes;
    const scheduledId = closed && String(closed.scheduledEventId);
    if (scheduledId && startedAt.has(scheduledId))
      heartbeats += Math.floor((eventTimeMs(event) - startedAt.get(scheduledId)!) / throttleMs.get(scheduledId)!);
  }
  return heartbeats;
}

/** When a history event happened, epoch ms (0 when it has no time). */
export function eventTimeMs(event: Event): number {
  const t = event.eventTime;
  return t ? Number(t.seconds ?? 0) * 1000 + (t.nanos ?? 0) / 1e6 : 0;
}

/** One line per kind of action, `divisor` journeys' worth each (a mean per journey). */
export function actionLines(actions: Actions, divisor = 1): string[] {
  const per = (n: number) => Math.round((n / divisor) * 10) / 10;
  return (Object.keys(actions) as (keyof Actions)[])
    .filter((k) => actions[k] > 0)
    .map((k) => `  ${k.padEnd(24)} ${per(actions[k])}`);
}
