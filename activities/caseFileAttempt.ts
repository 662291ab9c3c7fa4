/**
 * Whose data an activity writes to the case file: the step attempt is the workflow the activity
 * runs for (`case/<caseId>/<step>[/<n>]`, unique per attempt, the same on every retry), so a
 * retried activity writes the same rows. The case id comes from the input when the workflow
 * passes it, else from the journey's workflow id scheme. Outside an activity (tests, scripts)
 * rows go under the attempt `direct`.
 */
import type { CaseFileAttempt } from '../case-file/attempt';
import type { CaseFileRecord, CaseFileRef } from '../case-file/summaries';
import { currentActivity } from './activityCall';

const OUTSIDE_AN_ACTIVITY = 'direct';

export function caseFileAttempt(caseId?: string): CaseFileAttempt {
  const workflowId = currentActivity()?.info.workflowExecution?.workflowId;
  const fromWorkflowId = workflowId?.match(/^case\/([^/]+)\//)?.[1];
  return { caseId: caseId ?? fromWorkflowId ?? workflowId ?? 'unknown', attemptId: workflowId ?? OUTSIDE_AN_ACTIVITY };
}

export function caseFileRef(at: CaseFileAttempt, record: CaseFileRecord, id: string): CaseFileRef {
  return { case_id: at.caseId, attempt_id: at.attemptId, record, id };
}
