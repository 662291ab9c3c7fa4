/**
 * What one workflow run costs Temporal, read from its history: events, workflow tasks, signals,
 * activities, timers, children, its size, and Temporal Cloud billable actions (billableActions.ts).
 */
import { temporal } from '@temporalio/proto';
import {
  addActions,
  billableActions,
  isLocalActivityMarker,
  noActions,
  totalOf,
  type Actions,
} from './billableActions';
import { isPoll } from './polls';

const T = temporal.api.enums.v1.EventType;
type Event = temporal.api.history.v1.IHistoryEvent;

export interface Cost {
  events: number;
  workflowTasks: number;
  signalsSent: number;
  signalsReceived: number;
  activities: number;
  /** Local activities (their markers): the read model's writes and the LOS events, each sent first as one. */
  localActivities: number;
  timers: number;
  children: number;
  /** Reconciliation polls (polls.ts): what waiting for the applicant costs. */
  polls: number;
  /** The history's size as Temporal stores it (protobuf, its payloads encrypted), in bytes. */
  historyBytes: number;
  /** Billable actions, all kinds. */
  actions: number;
  /** The same by kind. */
  actionsByKind: Actions;
}

export const zeroCost = (): Cost => ({
  events: 0,
  workflowTasks: 0,
  signalsSent: 0,
  signalsReceived: 0,
  activities: 0,
  localActivities: 0,
  timers: 0,
  children: 0,
  polls: 0,
  historyBytes: 0,
  actions: 0,
  actionsByKind: noActions(),
});

type Count = Exclude<keyof Cost, 'actionsByKind'>;

export function addCost(into: Cost, more: Cost): Cost {
  for (const key of Object.keys(into) as (keyof Cost)[])
    if (key !== 'actionsByKind') into[key as Count] += more[key as Count];
  addActions(into.actionsByKind, more.actionsByKind);
  return into;
}

export function historyCost(events: readonly Event[]): Cost {
  const cost = zeroCost();
  cost.events = events.length;
  cost.historyBytes = temporal.api.history.v1.History.encode({ events: [...events] }).finish().length;
  cost.actionsByKind = billableActions(events);
  cost.actions = totalOf(cost.actionsByKind);
  for (const event of events) {
    if (isPoll(event)) cost.polls++;
    switch (event.eventType) {
      case T.EVENT_TYPE_WORKFLOW_TASK_SCHEDULED:
        cost.workflowTasks++;
        break;
      case T.EVENT_TYPE_SIGNAL_EXTERNAL_WORKFLOW_EXECUTION_INITIATED:
        cost.signalsSent++;
        break;
      case T.EVENT_TYPE_WORKFLOW_EXECUTION_SIGNALED:
        cost.signalsReceived++;
        break;
      case T.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED:
        cost.activities++;
        break;
      case T.EVENT_TYPE_TIMER_STARTED:
        cost.timers++;
        break;
      case T.EVENT_TYPE_MARKER_RECORDED:
        if (isLocalActivityMarker(event)) cost.localActivities++;
        break;
      case T.EVENT_TYPE_START_CHILD_WORKFLOW_EXECUTION_INITIATED:
        cost.children++;
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
