/**
 * The status every step reports (through its journey's `status` query): its state, the
 * provider ids it works with, the last event seen, the reason for any non-completed state, and a
 * step-specific detail (a picklist, accounts read, document outcomes); and the step's messages.
 */
import { defineQuery, defineSignal } from '@temporalio/workflow';
import type { LastEvent, StepState } from './stepState';

/** The provider's answer when a call of the step failed for good. */
export interface ProviderError {
  /** HTTP status, or null for a network failure or a timeout. */
  status: number | null;
  message: string;
}

export interface StepStatus<Detail = unknown> {
  state: StepState;
  providerIds: Record<string, string>;
  lastEvent: LastEvent | null;
  reason: string | null;
  detail: Detail | null;
  /** Links the applicant must open (an IDV link, a bank connection link). */
  links?: Record<string, string>;
  /**
   * Set when the step failed because of a provider call (or, while it waits, the provider's last
   * answer in an outage).
   */
  error?: ProviderError | null;
  /**
   * Set on an attempt's result when what it bought is finished and cannot be continued (the
   * provider refused it, it expired, the applicant was declined): the next attempt buys anew. Unset,
   * the next attempt continues the same need with the same keys (client/purchaseKey.ts).
   */
  needSpent?: boolean;
  /**
   * The provider's own date of the evidence a completed attempt read, where its data carries one
   * (an IDV's `date_completed`, the last bank transaction's date, an insight's `datetime_completed`;
   * ISO 8601): the journey measures the evidence's validity window from it (client/evidenceValidity.ts).
   * Absent: the journey measures from when the attempt completed.
   */
  evidenceDate?: string | null;
}

export interface StepReport {
  stepKey: string;
  /** Reports are signals sent without waiting, and may arrive out of order: the newest wins. */
  seq: number;
  status: StepStatus;
}

/**
 * Sent by a provider call that keeps failing with an answer worth retrying (5xx, 429, timeouts,
 * the provider unreachable), on its first failure and then at growing intervals: the step shows
 * `waiting` with the provider's last answer until a call succeeds, instead of `running` for hours.
 */
export interface ProviderUnavailable {
  /** When the call first failed (ISO 8601). */
  since: string;
  /** The provider's last answer. */
  answer: ProviderError;
  /** Which try of the call this was. */
  attempt: number;
}

export const stepStatusQuery = defineQuery<StepStatus>('status');
export const stepReportSignal = defineSignal<[StepReport]>('stepReport');
export const providerUnavailableSignal = defineSignal<[ProviderUnavailable]>('providerUnavailable');
