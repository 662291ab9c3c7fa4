/**
 * The journey's `status` as the case API shows it: each step with its picklist lifted out of `detail`,
 * and every step's evidence with its validUntil.
 */
import type { PicklistEntry } from '../provider';
import { evidenceOfSteps } from '../client/evidenceValidity';
import type { JourneyStatus } from '../client/journeyMessages';

export function caseView(
  status: JourneyStatus & { runStatus: string; runId?: string; assignee?: string | null; reference?: string | null },
) {
  const steps = Object.fromEntries(
    Object.entries(status.steps).map(([key, step]) => {
      const picklist = (step.detail as { picklist?: PicklistEntry[] | null } | null)?.picklist ?? null;
      // A picklist matters only while the step waits for a choice.
      return [key, { ...step, error: step.error ?? null, picklist: step.state === 'waiting' ? picklist : null }];
    }),
  );
  return {
    caseId: status.caseId,
    reference: status.reference ?? null,
    state: status.state,
    runStatus: status.runStatus,
    runId: status.runId ?? null,
    steps,
    reasons: status.reasons,
    operatorDeadline: status.operatorDeadline ?? null,
    // From the steps, where the read model keeps each step's evidence.
    evidence: evidenceOfSteps(status.steps),
    assignee: status.assignee,
  };
}
