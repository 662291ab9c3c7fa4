/** Every wait's default length, in one place. Journey inputs override each. */
import type { Duration } from '@temporalio/common';

export const defaultDeadlines = {
  /** The applicant finishes an identity check (per request). */
  identityVerification: '14 days',
  /** An operator (or the automatic rule) resolves a credit report picklist. */
  picklist: '3 days',
  /** The applicant connects a bank or their statements are processed. */
  banking: '14 days',
  /** Uploaded documents are processed. */
  documents: '2 days',
  /** The provider computes an affordability insight. */
  affordability: '2 days',
  /** The provider verifies income and employer ("it may take time", §6.5). */
  incomeEmployer: '7 days',
  /** With no webhook for this long, the resource workflow asks the provider (webhooks get lost). */
  reconcileAfter: '1 hour',
  /**
   * Each further poll that finds nothing waits twice as long as the one before, up to this
   * (workflows/pollBackoff.ts); a delivery starts again from reconcileAfter.
   */
  reconcileBackoffCap: '12 hours',
  /** A resource workflow ends after this long with no delivery and no subscriber activity. */
  resourceRetention: '30 days',
  /** A journey that needs attention waits this long for an operator's retry, waiver or cancel. */
  operatorDecision: '30 days',
  /**
   * A provider call is retried this long (capped exponential backoff, `Retry-After` honoured) before
   * its step fails with the provider's answer: long enough that an outage of a few hours needs no
   * operator (the step shows `waiting`, "provider unavailable since …", meanwhile).
   */
  providerCalls: '6 hours',
} as const satisfies Record<string, Duration>;

/**
 * How long a resource workflow stays once its outcome (the terminal event) has reached its
 * subscribers, instead of `resourceRetention`. The provider never sends a delivery twice; what can
 * still come late (a bridge's spool drained after an outage, a dead letter replayed) starts a new
 * run, which keeps it as any delivery before a subscription is kept.
 */
export const resourceQuietAfterOutcome: Duration = '1 hour';

export type Deadlines = { -readonly [K in keyof typeof defaultDeadlines]: Duration };

export function deadlinesWith(overrides: Partial<Deadlines> = {}): Deadlines {
  return { ...defaultDeadlines, ...overrides };
}
