/**
 * The operator model's reading of an upstream replay defect (test/faults/journeyModel/
 * updateAcceptedLate.ts): only an Update accepted after a command of the same workflow task, named
 * by the replay's "Update machine" error, is that defect; any other nondeterminism stays a failure.
 */
import type { temporal } from '@temporalio/proto';
import { updateAcceptedLate } from '../faults/journeyModel/updateAcceptedLate';

type Event = temporal.api.history.v1.IHistoryEvent;

const event = (eventId: number, attributes: Partial<Event>): Event => ({
  eventId: eventId as unknown as Long,
  ...attributes,
});
const started = (id: number) => event(id, { workflowTaskStartedEventAttributes: {} });
const completed = (id: number) => event(id, { workflowTaskCompletedEventAttributes: {} });
const scheduled = (id: number) => event(id, { activityTaskScheduledEventAttributes: {} });
const accepted = (id: number) => event(id, { workflowExecutionUpdateAcceptedEventAttributes: {} });
const signaled = (id: number) => event(id, { workflowExecutionSignaledEventAttributes: {} });

/** The fault run's task: an activity scheduled, then the Update accepted, by one workflow task. */
const late = {
  events: [
    started(40),
    completed(41),
    scheduled(42),
    accepted(43),
    signaled(44),
    scheduled(45),
    started(47),
    completed(48),
  ],
};
const error = (id: number) =>
  `[TMPRL1100] Nondeterminism error: Update machine does not handle this event: HistoryEvent(id: ${id}, ActivityTaskScheduled)`;

test('an Update accepted after a command of the same task, named by the replay, is the upstream defect', () => {
  expect(updateAcceptedLate(late, error(42))).toBe(true);
});

test('an Update accepted first, or in another task, is not: the divergence is the workflow code', () => {
  const acceptedFirst = {
    events: [started(40), completed(41), accepted(42), scheduled(43), started(45), completed(46)],
  };
  expect(updateAcceptedLate(acceptedFirst, error(43))).toBe(false);
  const nextTask = { events: [started(40), completed(41), scheduled(42), started(44), completed(45), accepted(46)] };
  expect(updateAcceptedLate(nextTask, error(42))).toBe(false);
});

test('any other nondeterminism error is not', () => {
  expect(
    updateAcceptedLate(late, '[TMPRL1100] Nondeterminism error: Missing associated machine for LocalActivity(3)'),
  ).toBe(false);
  expect(
    updateAcceptedLate(
      late,
      '[TMPRL1100] Nondeterminism error: No command scheduled for event HistoryEvent(id: 42, ActivityTaskScheduled)',
    ),
  ).toBe(false);
  expect(updateAcceptedLate(late, error(99))).toBe(false);
});
