/**
 * What an operator needs to read from a failed provider call: the provider's status and message,
 * not "Activity task failed". An ActivityFailure wraps the activity's ApplicationFailure; when the
 * retries ran out of time it wraps a TimeoutFailure whose cause is the last attempt's failure, and
 * when the budget ended during an attempt, a TimeoutFailure alone.
 */
import { ActivityFailure, ApplicationFailure, TemporalFailure, TimeoutFailure, TimeoutType } from '@temporalio/common';
import { isCancellation } from '@temporalio/workflow';
import {
  PURCHASE_OUTCOME_UNKNOWN,
  PURCHASE_SEARCH_PENDING,
  purchaseOutcomeUnknownMessage,
  type UnknownPurchase,
} from '../client/purchaseKey';
import type { StepState } from '../client/stepState';
import { ResourceInboxes } from './resourceInbox';
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

/**
 * The provider's status and message; when the call's budget ended before any answer, that, in
 * those words; else the outermost Temporal message.
 */
export function providerErrorOf(error: unknown): ProviderError {
  const application = applicationFailureOf(error);
  const details = application?.details?.[0] as { status?: unknown } | undefined;
  const status = typeof details?.status === 'number' ? details.status : null;
  if (application) return { status, message: application.message };
  const budget = budgetTimeoutOf(error);
  if (budget)
    return { status: null, message: `the call's budget ran out before the provider answered (${budget.message})` };
  const temporal = error instanceof TemporalFailure ? error : undefined;
  return { status: null, message: temporal?.cause?.message ?? (error as Error)?.message ?? String(error) };
}

/** The schedule-to-close timeout in the cause chain: the call's whole budget, retries included, spent. */
function budgetTimeoutOf(error: unknown): TimeoutFailure | undefined {
  for (let e: unknown = error; e instanceof Error; e = (e as { cause?: unknown }).cause)
    if (e instanceof TimeoutFailure && e.timeoutType === TimeoutType.SCHEDULE_TO_CLOSE) return e;
  return undefined;
}

type Finish<Detail> = (
  state: StepState,
  reason: string | null,
  detail?: Detail,
  error?: ProviderError,
) => StepStatus<Detail>;

interface Ending<Detail> {
  finish: Finish<Detail>;
  /** Marks the need as bought and unusable (stepStatus.ts). */
  spend: () => void;
}

/**
 * Runs a step's body. A provider call that failed for good ends the step `failed` with the
 * provider's status and message, never stuck `running`; a 4xx that refused it (nothing was made,
 * and the same key would be refused again) spends the need. A creating call whose outcome nobody
 * could find (activities/purchaseGuard.ts) ends the step `needs_attention` with the failure's own
 * words ("purchase outcome unknown since …"): the provider may hold what it bought, so the need is
 * not spent, and an operator decides between looking again and buying anew. A cancelled attempt
 * (an operator waived or retried the step, or the journey closed) answers `cancelled` with the ids
 * it holds, its creating calls finished (purchase.ts), so the journey records whatever was bought.
 * The body opens its resource inboxes from the `inboxes` it is given, which the attempt leaves
 * when it ends.
 */
export async function failingOnProviderError<Detail>(
  ending: Ending<Detail>,
  body: (inboxes: ResourceInboxes) => Promise<StepStatus<Detail>>,
): Promise<StepStatus<Detail>> {
  const inboxes = new ResourceInboxes();
  const result = await endingOf(ending, () => body(inboxes));
  // However the attempt ended, its resources stop polling for it (they end once nobody waits).
  await inboxes.leaveAll();
  return result;
}

async function endingOf<Detail>(
  ending: Ending<Detail>,
  body: () => Promise<StepStatus<Detail>>,
): Promise<StepStatus<Detail>> {
  try {
    return await body();
  } catch (error) {
    if (isCancellation(error)) return ending.finish('cancelled', 'the attempt was cancelled');
    if (!(error instanceof ActivityFailure)) throw error;
    const unknown = unknownPurchase(error);
    if (unknown) return ending.finish('needs_attention', unknown);
    const providerError = providerErrorOf(error);
    if (refused(error, providerError)) ending.spend();
    return ending.finish('failed', `a provider call failed: ${providerError.message}`, undefined, providerError);
  }
}

/**
 * Why the step's purchase outcome is unknown, in our words (the provider answered nothing): the
 * search gave up, or the call's budget ended while it was still looking.
 */
function unknownPurchase(error: unknown): string | undefined {
  const application = applicationFailureOf(error);
  if (application?.type === PURCHASE_OUTCOME_UNKNOWN) return application.message;
  if (application?.type !== PURCHASE_SEARCH_PENDING) return undefined;
  const details = application.details?.[0] as UnknownPurchase | undefined;
  return details ? purchaseOutcomeUnknownMessage(details) : application.message;
}

/** A 4xx the provider will not take back (408 and 429 are retried, so they never end up here refused). */
function refused(error: unknown, providerError: ProviderError): boolean {
  const status = providerError.status;
  return applicationFailureOf(error)?.nonRetryable === true && status !== null && status >= 400 && status < 500;
}
