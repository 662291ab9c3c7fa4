/**
 * A journey's continue-as-new: when Temporal suggests it (its history is long), the journey goes on
 * in a new run of `case/<caseId>` that starts where this one stands. It happens only where nothing
 * is in flight — no step running (a child would be cancelled with the run), no operator action
 * under way, every read-model write and LOS event delivered (a closed run's activities never run) —
 * that is, when the journey is about to wait for an operator. The new run takes its state from
 * `continued` in its input instead of from the plan; its search attributes say the same.
 */
import { makeContinueAsNewFunc, workflowInfo } from '@temporalio/workflow';
import type { ValidOnboardCaseInput } from '../client/journeyInput';
import type { JourneyState, JourneyStatus } from '../client/journeyMessages';
import { caseSearchAttributes } from '../client/searchAttributes';
import type { EvidenceRenewals } from './journeyEvidence';
import type { onboardCase } from './onboardCaseWorkflow';

/** What a run hands the next: everything the journey decides by that the plan does not say. */
export interface ContinuedJourney {
  status: JourneyStatus;
  /** Steps whose next attempt buys anew. */
  freshNext: string[];
  /** Step attempts the LOS has heard of, and the last state it heard. */
  announcedSteps: string[];
  announcedState: JourneyState | null;
  /** The LOS events' counts by subject (journeyNotifier.ts): a later event never takes an earlier one's id. */
  eventCounts: Record<string, number>;
  /** The evidence renewed in this run, and renewals still under way (journeyEvidence.ts). */
  evidence?: EvidenceRenewals;
}

/** The journey's input as the workflow reads it: the clients' input, and what a previous run handed on. */
export type JourneyInput = ValidOnboardCaseInput & {
  continued?: ContinuedJourney;
  /** Continue as new from this many history events on, besides Temporal's suggestion (tests). */
  continueAsNewAtHistoryLength?: number;
};

export function continueAsNewSuggested(input: JourneyInput): boolean {
  const info = workflowInfo();
  const at = input.continueAsNewAtHistoryLength;
  return info.continueAsNewSuggested || (at !== undefined && info.historyLength >= at);
}

/**
 * Ends this run; the next starts from `continued` (the journey upgrades at every task under Worker
 * Versioning, so it runs the current build), with its case and the state this one published last.
 */
export async function continueJourney(input: JourneyInput, continued: ContinuedJourney): Promise<never> {
  const next = makeContinueAsNewFunc<typeof onboardCase>({
    typedSearchAttributes: caseSearchAttributes(input.caseId, continued.status.state),
  });
  const nextInput: JourneyInput = { ...input, continued };
  return next(nextInput);
}
