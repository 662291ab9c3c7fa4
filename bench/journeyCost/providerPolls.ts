/**
 * Polls counted where they land: the provider's request log. A resource polls with one activity
 * whose retries are its schedule (workflows/retryingPoll.ts); a history shows that activity once,
 * and the attempts of one cancelled between two of them (a webhook came) not at all, though each
 * is a billable action. Counted by bench:waiting and bench:cost, and by the polling tests.
 */
import type { temporal } from '@temporalio/proto';
import { pollPath } from '../../activities/pollResource';
import type { ResourceKey } from '../../provider';
import type { RequestLogEntry } from '../../simulator/store';
import { eventTimeMs } from './billableActions';
import { POLL_BY_RETRY } from './polls';

/**
 * When each poll of `resource` reached the provider (ms), in order: the reads of its poll path
 * until `until` (a step reads the same path once its event has come; that read is no poll).
 */
export function pollsAtProvider(
  requests: readonly RequestLogEntry[],
  resource: ResourceKey,
  until = Number.POSITIVE_INFINITY,
): number[] {
  const polled = pollPath(resource);
  if (polled === undefined) return [];
  return requests
    .filter((r) => r.method === 'GET' && r.path === polled && r.at < until)
    .map((r) => r.at)
    .sort((a, b) => a - b);
}

type Event = temporal.api.history.v1.IHistoryEvent;

/**
 * The poll attempts of a resource run's `pollUntilSettled` activities: the provider's reads of the
 * resource while each was pending (from its scheduling to its cancel request or its end), and how
 * many of them the history shows (each activity's first attempt, and a completed one's retries, by
 * its started event's attempt number). Every attempt is a billable action; `attempts - shown` are
 * the ones only the provider saw.
 */
export function pollAttempts(
  events: readonly Event[],
  requests: readonly RequestLogEntry[],
  resource: ResourceKey,
): { activities: number; attempts: number; shown: number } {
  const total = { activities: 0, attempts: 0, shown: 0 };
  for (const scheduled of events.filter(
    (e) => e.activityTaskScheduledEventAttributes?.activityType?.name === POLL_BY_RETRY,
  )) {
    const id = Number(scheduled.eventId);
    const ofIt = (e: Event) => {
      const a =
        e.activityTaskCancelRequestedEventAttributes ??
        e.activityTaskCompletedEventAttributes ??
        e.activityTaskCanceledEventAttributes ??
        e.activityTaskFailedEventAttributes ??
        e.activityTaskTimedOutEventAttributes;
      return a !== undefined && a !== null && Number(a.scheduledEventId) === id;
    };
    const ended = events.find(ofIt);
    const started = events.find((e) => Number(e.activityTaskStartedEventAttributes?.scheduledEventId ?? -1) === id);
    // The read that found the resource settled came before its completion: inside the window.
    const until = ended ? eventTimeMs(ended) : Number.POSITIVE_INFINITY;
    const read = pollsAtProvider(requests, resource, until).filter((at) => at >= eventTimeMs(scheduled)).length;
    const shown = Math.max(1, started?.activityTaskStartedEventAttributes?.attempt ?? 1);
    total.activities++;
    total.attempts += Math.max(read, shown);
    total.shown += shown;
  }
  return total;
}
