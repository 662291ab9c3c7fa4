/** Whose data an activity writes: the case and the step attempt (the step's workflow id). */
export interface CaseFileAttempt {
  caseId: string;
  attemptId: string;
}
