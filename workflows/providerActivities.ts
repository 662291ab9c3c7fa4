/** The activities as workflows call them, with the options of activityOptions.ts. */
import { msToNumber } from '@temporalio/common/lib/time';
import { ActivityFailure, RetryState, type Duration } from '@temporalio/common';
import { CancellationScope, isCancellation, proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../activities';
import { defaultDeadlines } from '../client/deadlines';
import { activityOptions } from './activityOptions';

/** How long a creating call stopped by a cancellation is asked again for its answer. */
const RECOVERY_BUDGET_MS = 30_000;

type Call = (...args: unknown[]) => Promise<unknown>;

/** A creating call: the workflow gave it the purchase's idempotency key (purchase.ts). */
const creating = (input: unknown): boolean =>
  typeof (input as { idempotencyKey?: unknown } | null)?.idempotencyKey === 'string';

/**
 * Stopped by a cancellation: cancelled between tries or while a try failed, or failed in a try
 * that Temporal did not repeat because a cancel was requested meanwhile (the activity had not
 * heard of it yet: cancellation reaches it only with a heartbeat's answer).
 */
const stoppedByCancel = (error: unknown): boolean =>
  isCancellation(error) || (error instanceof ActivityFailure && error.retryState === RetryState.CANCEL_REQUESTED);

/**
 * Provider calls retried within `budget` (default `deadlines.providerCalls`). `onAnswer` runs
 * after each call that succeeded: a step that showed the provider unavailable goes back to what
 * it was doing.
 *
 * A creating call that a cancellation stopped (a waive, a retry or a cancel reached the attempt
 * between two tries of a call whose answer was lost, or while a try was failing, which Temporal
 * then does not repeat) has an unknown
 * outcome: the provider may have made the thing. The call is sent once more, under the same key
 * and out of the cancellation's reach, for at most `RECOVERY_BUDGET_MS`, so what it bought reaches
 * the step's ids and the case file before the attempt ends; if the provider does not answer in
 * that time, the cancellation stands and the need's next attempt recovers it by the same key.
 */
export function providerActivities(budget?: Duration, onAnswer?: () => void) {
  const activities = proxyActivities<Activities>(activityOptions.provider(budget));
  const recoveryBudget = Math.min(RECOVERY_BUDGET_MS, msToNumber(budget ?? defaultDeadlines.providerCalls));
  const recovery = proxyActivities<Activities>(activityOptions.provider(recoveryBudget));
  const recovered = async (error: unknown, name: string | symbol, args: unknown[]): Promise<unknown> => {
    if (!stoppedByCancel(error) || !creating(args[0])) throw error;
    const again = Reflect.get(recovery, name) as Call;
    return CancellationScope.nonCancellable(() => again(...args)).catch(() => {
      throw error;
    });
  };
  return new Proxy(activities, {
    get(target, name) {
      const call = Reflect.get(target, name) as Call;
      return async (...args: unknown[]) => {
        const result = await call(...args).catch((error: unknown) => recovered(error, name, args));
        onAnswer?.();
        return result;
      };
    },
  });
}

export const provider = providerActivities();

export const resourceSubscriptions = proxyActivities<Pick<Activities, 'subscribeToResource'>>(
  activityOptions.subscribe,
);
