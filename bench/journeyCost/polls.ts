/**
 * Reconciliation polls in a resource workflow's history: a `pollResource` activity (resources that
 * poll every reconcileAfter), the marker of its local activity (resources that backed off with a
 * timer per poll), or a `pollUntilSettled` activity, whose retries are the polls after its first
 * (workflows/retryingPoll.ts): those are not events, and are counted at the provider
 * (providerPolls.ts). Counted by bench:cost and bench:waiting and by the polling tests.
 */
import type { temporal } from '@temporalio/proto';
import { isLocalActivityMarker } from './billableActions';

type Event = temporal.api.history.v1.IHistoryEvent;

const POLL = 'pollResource';
/** The activity of a poll whose retries are the polls after its first. */
export const POLL_BY_RETRY = 'pollUntilSettled';

/** The event that records a poll's answer (its marker) or its start (the activity scheduled). */
export function isPoll(event: Event): boolean {
  const scheduled = event.activityTaskScheduledEventAttributes?.activityType?.name;
  if (scheduled === POLL || scheduled === POLL_BY_RETRY) return true;
  const marker = event.markerRecordedEventAttributes;
  if (!marker || !isLocalActivityMarker(event)) return false;
  // The marker's data (written by the SDK's core, never encoded by the codec) names the activity type.
  return Buffer.from(marker.details?.data?.payloads?.[0]?.data ?? []).toString('utf8').includes(`"${POLL}"`);
}
