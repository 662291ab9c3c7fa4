/**
 * Every activity's timeouts and retry policy, in one table. Retries end: a provider call is
 * retried with backoff within a budget (`deadlines.providerCalls`), then its step fails with the
 * provider's answer in `reason`. Provider calls heartbeat while they last, so a cancelled journey
 * reaches them within a heartbeat and aborts the HTTP request.
 */
import type { ActivityOptions, Duration, LocalActivityOptions } from '@temporalio/common';
import { defaultDeadlines } from '../client/deadlines';

const backoff = { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '30 seconds' } as const;

export const activityOptions = {
  /** A call to the provider (create or read); `budget` bounds all its attempts together. */
  provider: (budget: Duration = defaultDeadlines.providerCalls): ActivityOptions => ({
    startToCloseTimeout: '1 minute',
    heartbeatTimeout: '10 seconds',
    scheduleToCloseTimeout: budget,
    retry: backoff,
  }),
  /** Subscribing to a resource workflow: a Temporal call, retried while Temporal is away. */
  subscribe: {
    startToCloseTimeout: '30 seconds',
    scheduleToCloseTimeout: '1 day',
    retry: { ...backoff, maximumInterval: '1 minute' },
  } satisfies ActivityOptions,
  /** Reconciliation by polling: a miss is retried at the next poll, so few attempts here. */
  reconcile: {
    startToCloseTimeout: '30 seconds',
    heartbeatTimeout: '10 seconds',
    retry: { initialInterval: '5 seconds', maximumInterval: '5 minutes', maximumAttempts: 3 },
  } satisfies ActivityOptions,
  /** A journey event to the LOS: retried until delivered, for as long as an LOS outage may last. */
  notify: {
    startToCloseTimeout: '30 seconds',
    scheduleToCloseTimeout: '7 days',
    retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute' },
  } satisfies ActivityOptions,
  /**
   * A journey event's first try, as a local activity: one marker event when the LOS answers (an
   * activity costs three events and a workflow task of three more). One attempt, briefly: while it
   * runs the journey's workflow task stays open, so an LOS that is down or slow gets the durable
   * activity above instead and never holds the journey up for more than this.
   */
  notifyFirstTry: {
    startToCloseTimeout: '5 seconds',
    retry: { maximumAttempts: 1 },
  } satisfies LocalActivityOptions,
} as const;
