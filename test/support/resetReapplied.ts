/**
 * What a reset reapplied to its new run: the events between the failed task that marks the reset
 * point and the new run's first new task (Updates as UPDATE_ADMITTED, signals as SIGNALED, a
 * child's completion), in order.
 */
import { temporal } from '@temporalio/proto';

const EventType = temporal.api.enums.v1.EventType;

export function reapplied(history: temporal.api.history.v1.IHistory): string[] {
  const types = (history.events ?? []).map((event) => Number(event.eventType));
  const failed = types.indexOf(EventType.EVENT_TYPE_WORKFLOW_TASK_FAILED);
  const scheduled = types.indexOf(EventType.EVENT_TYPE_WORKFLOW_TASK_SCHEDULED, failed);
  return types.slice(failed + 1, scheduled).map((t) => EventType[t]!.replace('EVENT_TYPE_WORKFLOW_EXECUTION_', ''));
}
