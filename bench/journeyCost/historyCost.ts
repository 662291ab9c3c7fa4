/**
 * What one workflow run costs Temporal, read from its history: events, workflow tasks, signals,
 * activities, timers, children, and Temporal Cloud billable actions counted by Temporal's published
 * definition (docs.temporal.io/cloud/actions): a workflow started (client start, signalWithStart,
 * child, continue-as-new), a timer started (including `condition` with a timeout), a search
 * attribute upsert, a signal received, an update accepted or rejected, an activity attempt started.
 * Not in a history and so not counted: queries, activity heartbeats, and an update's rejection
 * that left no event.
 */
import { temporal } from '@temporalio/proto';

const T = temporal.api.enums.v1.EventType;
type Event = temporal.api.history.v1.IHistoryEvent;

export interface Cost {
  events: number;
  workflowTasks: number;
  signalsSent: number;
  signalsReceived: number;
  activities: number;
  timers: number;
  children: number;
  actions: number;
}

export const zeroCost = (): Cost => ({ events: 0, workflowTasks: 0, signalsSent: 0, signalsReceived: 0, activities: 0, timers: 0, children: 0, actions: 0 });

export function addCost(into: Cost, more: Cost): Cost {
  for (const key of Object.keys(into) as (keyof Cost)[]) into[key] += more[key];
  return into;
}

export function historyCost(events: readonly Event[]): Cost {
  const cost = zeroCost();
  cost.events = events.length;
  for (const event of events) {
    switch (event.eventType) {
      case T.EVENT_TYPE_WORKFLOW_EXECUTION_STARTED:
        cost.actions++;
        break;
      case T.EVENT_TYPE_WORKFLOW_TASK_SCHEDULED:
        cost.workflowTasks++;
        break;
      case T.EVENT_TYPE_SIGNAL_EXTERNAL_WORKFLOW_EXECUTION_INITIATED:
        cost.signalsSent++;
        break;
      case T.EVENT_TYPE_WORKFLOW_EXECUTION_SIGNALED:
        cost.signalsReceived++;
        cost.actions++;
        break;
      case T.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED:
        cost.activities++;
        break;
      case T.EVENT_TYPE_ACTIVITY_TASK_STARTED:
        // One action per attempt; a retried activity's started event records its last attempt.
        cost.actions += Math.max(1, event.activityTaskStartedEventAttributes?.attempt ?? 1);
        break;
      case T.EVENT_TYPE_TIMER_STARTED:
        cost.timers++;
        cost.actions++;
        break;
      case T.EVENT_TYPE_START_CHILD_WORKFLOW_EXECUTION_INITIATED:
        cost.children++;
        break;
      case T.EVENT_TYPE_UPSERT_WORKFLOW_SEARCH_ATTRIBUTES:
      case T.EVENT_TYPE_WORKFLOW_EXECUTION_UPDATE_ACCEPTED:
      case T.EVENT_TYPE_WORKFLOW_EXECUTION_UPDATE_REJECTED:
        cost.actions++;
        break;
      default:
        break;
    }
  }
  return cost;
}

/** Event type names and counts, largest first: where a history's length comes from. */
export function eventBreakdown(events: readonly Event[]): [string, number][] {
  const counts = new Map<string, number>();
  for (const event of events) {
    const name = eventName(event.eventType);
    counts.set(name, (counts.get(name) ?? 0) + 1);
  }
  return [...counts.entries()].sort((a, b) => b[1] - a[1]);
}

/** `WORKFLOW_TASK_SCHEDULED` for EVENT_TYPE_WORKFLOW_TASK_SCHEDULED. */
export function eventName(type: temporal.api.enums.v1.EventType | null | undefined): string {
  return (T[type ?? 0] ?? String(type)).replace(/^EVENT_TYPE_/, '');
}
