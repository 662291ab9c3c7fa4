/** The credit report step's messages and detail, shared by the step, the journey and their clients. */
import { defineSignal, defineUpdate } from '@temporalio/workflow';
import type { ReportHeadline } from '../case-file/summaries';
import type { PicklistEntry } from '../provider';

export interface CreditReportDetail {
  picklist: PicklistEntry[] | null;
  /** The report's headline; the whole report is in the case file. */
  report: ReportHeadline | null;
  resolvedBy: 'provider' | 'operator' | 'automatic-rule' | null;
  /**
   * When the wait for an operator's picklist choice expires (ISO 8601, workflow time): set when the
   * step starts waiting on the picklist, removed once the choice is taken, kept on a step that
   * expired waiting (when it expired). Absent on a step that never waited on a picklist (and on
   * steps written by workflow code that does not set it). The queue's deadline reads it.
   */
  expiresAt?: string;
}

export interface PicklistChoice {
  provider_id: string;
}

/**
 * The step's own Update, for a credit report run alone (not under a journey). Under a journey the
 * operator resolves through the journey's `resolvePicklist` (journeyMessages.ts): this one has a
 * name of its own, so that the two are never mistaken for each other.
 */
export const resolveCreditReportPicklistUpdate = defineUpdate<CreditReportDetail, [PicklistChoice]>(
  'resolveCreditReportPicklist',
);
/** The journey's way to pass on an operator's choice (a workflow cannot send an Update); the journey validated it. */
export const choosePicklistEntrySignal = defineSignal<[PicklistChoice]>('choosePicklistEntry');

/** Why a choice cannot be taken, or undefined when it can. */
export function picklistChoiceProblem(
  picklist: PicklistEntry[] | null | undefined,
  providerId: string,
): string | undefined {
  if (!picklist?.length) return 'There is no picklist waiting to be resolved';
  if (picklist.some((e) => e.provider_id === providerId)) return undefined;
  const candidates = picklist
    .map((e) => `${e.provider_id} (${e.company_name}${e.company_number ? `, ${e.company_number}` : ''})`)
    .join(', ');
  return `${providerId} is not on the picklist; choose one of: ${candidates}`;
}
