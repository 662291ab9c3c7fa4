/**
 * Reconciliation polls in a resource workflow's history: a `pollUntilSettled` activity, whose
 * retries are the polls after its first (workflows/retryingPoll.ts). Those retries are not events,
 * and are counted at the provider (providerPolls.ts). Counted by bench:cost and bench:waiting and
 * by the polling tests.
 */
import type { temporal } from '@temporalio/proto';

type Event = temporal.api.history.v1.IHistoryEvent;

/** The activity of a poll whose retries are the polls after its first. */
export const POLL_BY_RETRY = 'pollUntilSettled';

/** The event that starts a poll: its activity scheduled. */
export function isPoll(event: Event): boolean {
  return event.activityTaskScheduledEventAttributes?.activityType?.name === POLL_BY_RETRY;
}
