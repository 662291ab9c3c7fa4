/**
 * Poll attempts counted where they land (bench/journeyCost/providerPolls.ts): a poll is one
 * activity whose retries are its schedule, and a history shows only its first attempt, or a
 * completed one's attempt number. The provider's reads while it was pending are its attempts; the
 * step's read after the event is not one.
 */
import type { temporal } from '@temporalio/proto';
import { pollAttempts, pollsAtProvider } from '../../bench/journeyCost/providerPolls';
import type { RequestLogEntry } from '../../simulator/store';

type Event = temporal.api.history.v1.IHistoryEvent;

const resource = { kind: 'idv', id: 'r-1' } as const;
const at = (ms: number) => ({ seconds: Math.floor(ms / 1000), nanos: (ms % 1000) * 1e6 });
/** A history event as the client hands it over, built from plain numbers (the proto types want Longs). */
const event = (fields: Record<string, unknown>) => fields as unknown as Event;
const scheduled = (id: number, ms: number): Event =>
  event({
    eventId: id,
    eventTime: at(ms),
    activityTaskScheduledEventAttributes: { activityType: { name: 'pollUntilSettled' } },
  });
const read = (ms: number, path = '/v2/identity/r-1'): RequestLogEntry => ({ method: 'GET', path, at: ms, status: 200 });

test('a poll cancelled between attempts: every read while it was pending, of which the history shows one', () => {
  const events: Event[] = [
    scheduled(5, 1_000),
    event({ eventId: 9, eventTime: at(9_000), activityTaskCancelRequestedEventAttributes: { scheduledEventId: 5 } }),
    event({ eventId: 10, eventTime: at(9_000), activityTaskCanceledEventAttributes: { scheduledEventId: 5 } }),
  ];
  // Three attempts, then the step's read once the webhook came, and another resource's read.
  const requests = [read(1_010), read(3_020), read(7_030), read(9_500), read(2_000, '/v2/identity/other')];
  expect(pollAttempts(events, requests, resource)).toEqual({ activities: 1, attempts: 3, shown: 1 });
  expect(pollsAtProvider(requests, resource)).toEqual([1_010, 3_020, 7_030, 9_500]);
});

test("a poll that found the outcome: its attempts are its started event's number, and the provider agrees", () => {
  const events: Event[] = [
    scheduled(5, 1_000),
    event({
      eventId: 6,
      eventTime: at(7_040),
      activityTaskStartedEventAttributes: { scheduledEventId: 5, attempt: 3 },
    }),
    event({ eventId: 7, eventTime: at(7_040), activityTaskCompletedEventAttributes: { scheduledEventId: 5 } }),
  ];
  expect(pollAttempts(events, [read(1_010), read(3_020), read(7_030), read(7_500)], resource)).toEqual({
    activities: 1,
    attempts: 3,
    shown: 3,
  });
});

test('resources that are never polled, and runs without a poll, count none', () => {
  expect(pollsAtProvider([read(1_000)], { kind: 'case-banking', id: 'c' })).toEqual([]);
  expect(pollAttempts([], [read(1_000)], resource)).toEqual({ activities: 0, attempts: 0, shown: 0 });
});
