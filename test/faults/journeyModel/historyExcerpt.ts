/**
 * The events around the one a replay stumbled on, one line each, for a failure report that can be
 * read without the history file (CI keeps only the output): each event's id, type and what names
 * it (signal and Update names, Update ids, marker names, timer and activity ids, the workflow
 * task's SDK flags). Payloads are never shown (they are ciphertext, and a name is all that helps).
 */
import { temporal } from '@temporalio/proto';

type Event = temporal.api.history.v1.IHistoryEvent;

const typeName = (event: Event) =>
  (temporal.api.enums.v1.EventType[event.eventType ?? 0] ?? String(event.eventType)).replace(/^EVENT_TYPE_/, '');

function detail(e: Event): string {
  const parts: (string | null | undefined)[] = [
    e.workflowExecutionSignaledEventAttributes?.signalName,
    e.workflowExecutionUpdateAcceptedEventAttributes?.acceptedRequest?.input?.name,
    e.workflowExecutionUpdateAcceptedEventAttributes?.protocolInstanceId,
    e.workflowExecutionUpdateCompletedEventAttributes?.meta?.updateId,
    e.markerRecordedEventAttributes?.markerName,
    e.timerStartedEventAttributes?.timerId,
    e.timerFiredEventAttributes?.timerId,
    e.activityTaskScheduledEventAttributes?.activityType?.name,
    e.startChildWorkflowExecutionInitiatedEventAttributes?.workflowType?.name,
    e.workflowTaskFailedEventAttributes ? `cause ${e.workflowTaskFailedEventAttributes.cause}` : undefined,
  ];
  const sdk = e.workflowTaskCompletedEventAttributes?.sdkMetadata;
  if (sdk)
    parts.push(
      `core flags [${(sdk.coreUsedFlags ?? []).join(',')}] lang flags [${(sdk.langUsedFlags ?? []).join(',')}]`,
    );
  return parts.filter(Boolean).join(' ');
}

/**
 * Events shown when the replay's message names none (a local activity's sequence number, say): the
 * run's first ones.
 */
const UNNAMED_EVENTS_SHOWN = 80;

/**
 * The events from the workflow task before the one the message names to a few after it; when it
 * names none, the run's first events, where the runs that failed so far went astray.
 */
export function historyExcerpt(history: temporal.api.history.v1.IHistory, replayError: string): string {
  const events = history.events ?? [];
  const line = (e: Event, mark = ' ') =>
    `${mark} ${String(e.eventId).padStart(4)} ${typeName(e)} ${detail(e)}`.trimEnd();
  const match = /HistoryEvent\(id: (\d+)/.exec(replayError);
  if (!match)
    return `\n      the run's first ${Math.min(UNNAMED_EVENTS_SHOWN, events.length)} events:\n${events
      .slice(0, UNNAMED_EVENTS_SHOWN)
      .map((e) => `        ${line(e)}`)
      .join('\n')}`;
  const failedAt = Number(match[1]);
  const at = events.findIndex((e) => Number(e.eventId) === failedAt);
  if (at < 0) return '';
  let from = at;
  // Back to the start of the workflow task before the one that failed (its activation's jobs come from there).
  for (let tasks = 0; from > 0 && tasks < 2; from--) if (events[from - 1]?.workflowTaskStartedEventAttributes) tasks++;
  const lines = events
    .slice(Math.max(0, from - 1), at + 5)
    .map((e) => line(e, Number(e.eventId) === failedAt ? '>' : ' '));
  return `\n      events around ${failedAt}:\n${lines.map((l) => `        ${l}`).join('\n')}`;
}
