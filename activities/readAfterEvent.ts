/**
 * A result read right after its webhook can meet a provider whose read side lags its events: a
 * 404 there is retried briefly (the first few attempts) before it counts as the answer.
 */
import { ApplicationFailure } from '@temporalio/common';
import { currentActivity } from './activityCall';
import { httpFailureType } from './providerFailures';

/** Attempts (of the activity) during which a 404 is taken for lag, not for absence. */
export const NOT_YET_READABLE_ATTEMPTS = 4;

export async function readAfterEvent<T>(read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (error) {
    const attempt = currentActivity()?.info.attempt ?? Number.POSITIVE_INFINITY;
    if (
      !(error instanceof ApplicationFailure) ||
      error.type !== httpFailureType(404) ||
      attempt >= NOT_YET_READABLE_ATTEMPTS
    )
      throw error;
    throw ApplicationFailure.create({
      type: 'ProviderNotYetReadable',
      message: `${error.message} (attempt ${attempt}: read right after its event, trying again)`,
      nonRetryable: false,
      details: error.details as unknown[],
    });
  }
}
