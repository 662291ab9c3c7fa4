/**
 * What a failed step shows an operator (workflows/providerFailure.ts): the provider's status and
 * words when it answered; when the call's budget ended before any answer, that, in plain words,
 * with Temporal's own message kept for whoever searches the logs.
 */
import { ActivityFailure, ApplicationFailure, RetryState, TimeoutFailure, TimeoutType } from '@temporalio/common';
import { providerErrorOf } from '../../workflows/providerFailure';

const activityFailure = (cause: Error) =>
  new ActivityFailure('Activity task failed', 'requestCreditReport', '1', RetryState.TIMEOUT, 'worker', cause);
const providerAnswered = (status: number) =>
  ApplicationFailure.create({
    message: `the provider answered ${status}`,
    type: `HTTP_${status}`,
    details: [{ status }],
  });

test("the provider's answer is what a failed call shows", () => {
  expect(providerErrorOf(activityFailure(providerAnswered(503)))).toEqual({
    status: 503,
    message: 'the provider answered 503',
  });
});

test("retries that ran out of budget show the last answer, not Temporal's timeout", () => {
  const timeout = new TimeoutFailure('activity ScheduleToClose timeout', undefined, TimeoutType.SCHEDULE_TO_CLOSE);
  Object.assign(timeout, { cause: providerAnswered(503) });
  expect(providerErrorOf(activityFailure(timeout))).toEqual({ status: 503, message: 'the provider answered 503' });
});

test("a budget that ended during a call says so, in the operator's words", () => {
  const timeout = new TimeoutFailure('activity ScheduleToClose timeout', undefined, TimeoutType.SCHEDULE_TO_CLOSE);
  expect(providerErrorOf(activityFailure(timeout))).toEqual({
    status: null,
    message: "the call's budget ran out before the provider answered (activity ScheduleToClose timeout)",
  });
});

test("an attempt's own timeout under the budget's says the budget ran out", () => {
  const budget = new TimeoutFailure('activity ScheduleToClose timeout', undefined, TimeoutType.SCHEDULE_TO_CLOSE);
  Object.assign(budget, {
    cause: new TimeoutFailure('activity StartToClose timeout', undefined, TimeoutType.START_TO_CLOSE),
  });
  expect(providerErrorOf(activityFailure(budget)).message).toMatch(
    /^the call's budget ran out before the provider answered/,
  );
});

test('any other failure shows its Temporal message', () => {
  const heartbeat = new TimeoutFailure('activity Heartbeat timeout', undefined, TimeoutType.HEARTBEAT);
  expect(providerErrorOf(activityFailure(heartbeat))).toEqual({ status: null, message: 'activity Heartbeat timeout' });
});
