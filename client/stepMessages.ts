/**
 * The status every step reports (DESIGN.md §4, contract of the `status` query): its state, the
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
  /** Set when the step failed because of a provider call. */
  error?: ProviderError | null;
}

export interface StepReport {
  stepKey: string;
  /** Reports are signals sent without waiting, and may arrive out of order: the newest wins. */
  seq: number;
  status: StepStatus;
}

export const stepStatusQuery = defineQuery<StepStatus>('status');
export const stepReportSignal = defineSignal<[StepReport]>('stepReport');
