/**
 * A replay failure that no workflow code can cause: an Update accepted, in the recorded history,
 * after a command that the same workflow task issued.
 *
 * Within one activation the SDK runs every Update's validator and accepts it before any other job
 * (core sorts `doUpdate` with signals ahead of activity, child and timer resolutions; the TS SDK
 * accepts synchronously, before any microtask of the workflow's own code runs). So a task whose
 * commands read "[activity scheduled, …, Update accepted]" was processed by the live worker in two
 * activations, the Update arriving in the later one, while a replay hands it over in the first one
 * with the task's other events and accepts it first: "Update machine does not handle this event:
 * HistoryEvent(id: N, <the earlier command>)". Seen in the operator model's fault runs under load
 * (worker restarts, tasks waiting seconds to start), with and without local activities in the
 * journey; the SDK probes of docs/reliability.md ("Open") did not reproduce it on an idle machine.
 */
import type { temporal } from '@temporalio/proto';

type Event = temporal.api.history.v1.IHistoryEvent;

const UPDATE_MACHINE_DIVERGENCE = /Update machine does not handle this event: HistoryEvent\(id: (\d+)/;

/** True when the replay error names a command recorded ahead of an Update accepted in the same workflow task. */
export function updateAcceptedLate(history: temporal.api.history.v1.IHistory, replayError: string): boolean {
  const match = UPDATE_MACHINE_DIVERGENCE.exec(replayError);
  if (!match) return false;
  const events = history.events ?? [];
  const at = events.findIndex((e) => Number(e.eventId) === Number(match[1]));
  if (at < 0) return false;
  const completed = lastIndexBefore(events, at, (e) => Boolean(e.workflowTaskCompletedEventAttributes));
  if (completed < 0) return false;
  // The task's commands: from its completion to the next task's start (events the server adds
  // meanwhile, a signal say, do not end them; a task's commands are written together).
  const end = events.findIndex((e, i) => i > at && Boolean(e.workflowTaskStartedEventAttributes));
  const commands = events.slice(completed + 1, end < 0 ? events.length : end);
  return commands.slice(commands.indexOf(events[at] as Event) + 1).some(isUpdateAccepted);
}

const isUpdateAccepted = (e: Event) => Boolean(e.workflowExecutionUpdateAcceptedEventAttributes);

function lastIndexBefore(events: Event[], before: number, test: (e: Event) => boolean): number {
  for (let i = before - 1; i >= 0; i--) if (test(events[i] as Event)) return i;
  return -1;
}
