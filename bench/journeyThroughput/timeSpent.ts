/**
 * Where a journey's time went, read from the event times of its histories: each activity type's
 * wait for a worker (scheduled → started) and run (started → completed), and each workflow type's
 * workflow tasks, waiting (scheduled → started) and running on the worker (started → completed).
 * Wall-clock sums: concurrent work overlaps, so the figures rank costs rather than add up to the
 * journey's duration.
 */
import { temporal } from '@temporalio/proto';

const T = temporal.api.enums.v1.EventType;
type Event = temporal.api.history.v1.IHistoryEvent;

export interface Spent {
  count: number;
  totalMs: number;
  maxMs: number;
}

/** `activity <type> run`, `workflow task <type> wait`, …, each with its count, sum and maximum. */
export type TimeSpent = Map<string, Spent>;

const millis = (event: Event | undefined): number | undefined => {
  const time = event?.eventTime;
  if (!time) return undefined;
  return Number(time.seconds ?? 0) * 1000 + Math.floor((time.nanos ?? 0) / 1e6);
};

function add(into: TimeSpent, key: string, from: Event | undefined, to: Event | undefined): void {
  const a = millis(from);
  const b = millis(to);
  if (a === undefined || b === undefined) return;
  const spent = into.get(key) ?? { count: 0, totalMs: 0, maxMs: 0 };
  spent.count++;
  spent.totalMs += b - a;
  spent.maxMs = Math.max(spent.maxMs, b - a);
  into.set(key, spent);
}

export function timeSpent(workflowType: string, events: readonly Event[], into: TimeSpent = new Map()): TimeSpent {
  const byId = new Map<string, Event>();
  for (const event of events) byId.set(String(event.eventId), event);
  const activityType = (scheduledId: unknown) =>
    byId.get(String(scheduledId))?.activityTaskScheduledEventAttributes?.activityType?.name ?? '?';
  for (const event of events) {
    switch (event.eventType) {
      case T.EVENT_TYPE_ACTIVITY_TASK_STARTED: {
        const scheduledId = event.activityTaskStartedEventAttributes?.scheduledEventId;
        add(into, `activity ${activityType(scheduledId)} wait`, byId.get(String(scheduledId)), event);
        break;
      }
      case T.EVENT_TYPE_ACTIVITY_TASK_COMPLETED: {
        const attributes = event.activityTaskCompletedEventAttributes;
        add(
          into,
          `activity ${activityType(attributes?.scheduledEventId)} run`,
          byId.get(String(attributes?.startedEventId)),
          event,
        );
        break;
      }
      case T.EVENT_TYPE_WORKFLOW_TASK_STARTED:
        add(
          into,
          `workflow task ${workflowType} wait`,
          byId.get(String(event.workflowTaskStartedEventAttributes?.scheduledEventId)),
          event,
        );
        break;
      case T.EVENT_TYPE_WORKFLOW_TASK_COMPLETED:
        add(
          into,
          `workflow task ${workflowType} run`,
          byId.get(String(event.workflowTaskCompletedEventAttributes?.startedEventId)),
          event,
        );
        break;
      default:
        break;
    }
  }
  return into;
}

/** The largest sums first, as lines. */
export function describeTimeSpent(spent: TimeSpent, journeys: number, top = 15): string[] {
  return [...spent.entries()]
    .sort((a, b) => b[1].totalMs - a[1].totalMs)
    .slice(0, top)
    .map(
      ([key, s]) =>
        `  ${key.padEnd(58)} ${String(s.count).padStart(5)}× mean ${(s.totalMs / s.count).toFixed(0).padStart(5)} ms, max ${String(s.maxMs).padStart(5)} ms, per journey ${(s.totalMs / Math.max(1, journeys) / 1000).toFixed(2)} s`,
    );
}
