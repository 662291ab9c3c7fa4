/**
 * Every activity's timeouts and retry policy, in one table. Retries end: a provider call is
 * retried with capped exponential backoff within a budget (`deadlines.providerCalls`, hours: an
 * outage rides through), then its step fails with the provider's answer in `reason`. Provider calls
 * heartbeat while they last, so a cancellation reaches them within a heartbeat: a read is aborted,
 * a creating call runs to its answer (activities/providerClient.ts), and the workflow waits for the
 * activity to say which (WAIT_CANCELLATION_COMPLETED), so what a creating call bought reaches the
 * step even when an operator waived or cancelled it meanwhile.
 */
import { ActivityCancellationType, type ActivityOptions, type Duration } from '@temporalio/common';
import { msToNumber } from '@temporalio/common/lib/time';
import { defaultDeadlines } from '../client/deadlines';

const backoff = { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '30 seconds' } as const;

/** The longest pause between two tries of a provider call (a `Retry-After` may ask for longer). */
const PROVIDER_RETRY_CAP_MS = 5 * 60_000;

/**
 * Five minutes, or a twelfth of a shorter budget (a test's scaled-down clock), and never under the
 * first interval: a provider back after an outage is tried again soon, and an outage of hours costs
 * about a dozen tries an hour.
 */
function providerRetryCap(budget: Duration): number {
  return Math.max(1_000, Math.min(PROVIDER_RETRY_CAP_MS, Math.floor(msToNumber(budget) / 12)));
}

export const activityOptions = {
  /** A call to the provider (create or read); `budget` bounds all its attempts together. */
  provider: (budget: Duration = defaultDeadlines.providerCalls): ActivityOptions => ({
    startToCloseTimeout: '1 minute',
    heartbeatTimeout: '10 seconds',
    scheduleToCloseTimeout: budget,
    retry: { ...backoff, maximumInterval: providerRetryCap(budget) },
    cancellationType: ActivityCancellationType.WAIT_CANCELLATION_COMPLETED,
  }),
  /** Subscribing to a resource workflow: a Temporal call, retried while Temporal is away. */
  subscribe: {
    startToCloseTimeout: '30 seconds',
    scheduleToCloseTimeout: '1 day',
    retry: { ...backoff, maximumInterval: '1 minute' },
  } satisfies ActivityOptions,
  /**
   * A resource's polls: one activity whose retry policy is its schedule (retryingPoll.ts sets the
   * policy from the resource's `reconcileAfter` and cap), each attempt one short read, with no
   * heartbeat (each would be an action), as many attempts as it takes until the resource cancels
   * it. An attempt costs one billable action and no event, against two actions and six events for
   * a timer and a local activity.
   */
  reconcileByRetry: {
    startToCloseTimeout: '30 seconds',
  } satisfies ActivityOptions,
  /** A journey event to the LOS: retried until delivered, for as long as an LOS outage may last. */
  notify: {
    startToCloseTimeout: '30 seconds',
    scheduleToCloseTimeout: '7 days',
    retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute' },
  } satisfies ActivityOptions,
  /** The journey's state to the read model: retried until written, like an event to the LOS. */
  readModel: {
    startToCloseTimeout: '30 seconds',
    scheduleToCloseTimeout: '7 days',
    retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute' },
  } satisfies ActivityOptions,
} as const;
