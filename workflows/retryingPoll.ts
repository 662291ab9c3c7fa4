/**
 * A resource's polling as one activity whose retry policy is the backoff (pollBackoff.ts): its
 * first attempt when the poll is due, each next one twice as long after the one before, up to the
 * cap, until the provider answers settled or the resource cancels it (a delivery or subscription
 * starts the schedule again; the need ended). Temporal's guidance for infrequent polling: an
 * attempt costs one billable action and no history event, where a timer and a poll cost two
 * actions and six events. Three days of waiting: nine actions instead of sixteen.
 *
 * What a history then does not show: the attempts of a poll cancelled between two of them (the
 * usual end of one: the webhook came). The provider's request log counts them
 * (bench/journeyCost/providerPolls.ts).
 */
import { ActivityCancellationType } from '@temporalio/common';
import { CancellationScope, isCancellation, proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../activities';
import type { PollResult } from '../client/resourceMessages';
import type { ResourceKey } from '../provider';
import { activityOptions } from './activityOptions';
import { pollInterval } from './pollBackoff';

export type SettledPoll = Extract<PollResult, { settled: true }>;

export interface RetryingPoll {
  /** Stops the attempts; an attempt under way finishes its read, and its answer is dropped. */
  cancel(): void;
}

/**
 * Starts polling: the first attempt at once, then the backoff from `pollsBefore` polls already
 * made since the last delivery or subscription. `onSettled` gets the provider's settled answer;
 * `onEnded` is called when it stops any other way than by `cancel` (it does not, but for a failure
 * the policy cannot retry).
 */
export function startRetryingPoll(
  resource: ResourceKey,
  schedule: { reconcileAfterMs: number; capMs: number; pollsBefore: number },
  onSettled: (answer: SettledPoll) => void,
  onEnded: (error: unknown) => void,
): RetryingPoll {
  const { reconcileAfterMs, capMs, pollsBefore } = schedule;
  const provider = proxyActivities<Activities>({
    ...activityOptions.reconcileByRetry,
    retry: {
      initialInterval: pollInterval(reconcileAfterMs, capMs, pollsBefore + 1),
      backoffCoefficient: 2,
      maximumInterval: Math.max(capMs, reconcileAfterMs),
    },
    // The workflow goes on at once: a read under way has nothing to hand back.
    cancellationType: ActivityCancellationType.TRY_CANCEL,
  });
  const scope = new CancellationScope();
  let cancelled = false;
  scope
    .run(() => provider.pollUntilSettled({ resource }))
    .then(onSettled, (error: unknown) => {
      if (cancelled && isCancellation(error)) return;
      onEnded(error);
    });
  return {
    cancel() {
      cancelled = true;
      scope.cancel();
    },
  };
}
