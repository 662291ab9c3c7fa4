/**
 * What an operator needs to read from a failed provider call: the provider's status and message,
 * not "Activity task failed". An ActivityFailure wraps the activity's ApplicationFailure; when the
 * retries ran out of time it wraps a TimeoutFailure whose cause is the last attempt's failure.
 */
import { ActivityFailure, ApplicationFailure, TemporalFailure } from '@temporalio/common';
import { isCancellation } from '@temporalio/workflow';
import type { StepState } from '../client/stepState';
import type { ProviderError, StepStatus } from '../client/stepMessages';

/** The innermost ApplicationFailure in the cause chain: the activity's own words. */
export function applicationFailureOf(error: unknown): ApplicationFailure | undefined {
  let found: ApplicationFailure | undefined;
  for (let e: unknown = error; e instanceof Error; e = (e as { cause?: unknown }).cause) {
    if (e instanceof ApplicationFailure) found = e;
  }
  return found;
}

/** The failure type of the activity (`HTTP_422`, `ProviderUnreachable`, …), if any. */
export function failureType(error: unknown): string | undefined {
  return applicationFailureOf(error)?.type ?? undefined;
}

/** The provider's status and message; the outermost Temporal message when nothing better is known. */
export function providerErrorOf(error: unknown): ProviderError {
  const application = applicationFailureOf(error);
  const details = application?.details?.[0] as { status?: unknown } | undefined;
  const status = typeof details?.status === 'number' ? details.status : null;
  if (application) return { status, message: application.message };
  const temporal = error instanceof TemporalFailure ? error : undefined;
  return { status: null, message: temporal?.cause?.message ?? (error as Error)?.message ?? String(error) };
}

type Finish<Detail> = (state: StepState, reason: string | null, detail?: Detail, error?: ProviderError) => StepStatus<Detail>;

/**
 * Runs a step's body; a provider call that failed for good (non-retryable, or out of retry
 * budget) ends the step `failed` with the provider's status and message, never stuck `running`.
 */
export async function failingOnProviderError<Detail>(finish: Finish<Detail>, body: () => Promise<StepStatus<Detail>>): Promise<StepStatus<Detail>> {
  try {
    return await body();
  } catch (error) {
    if (isCancellation(error) || !(error instanceof ActivityFailure)) throw error;
    const providerError = providerErrorOf(error);
    return finish('failed', `a provider call failed: ${providerError.message}`, undefined, providerError);
  }
}
