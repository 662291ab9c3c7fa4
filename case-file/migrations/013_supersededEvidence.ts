/**
 * Later provider results that contradict the ones a journey used (case-file/supersededEvidence.ts).
 *
 * - `idv_results_request`: finds the result the journey recorded for an IDV request when the
 *   provider sends another for it.
 * - `case_events_superseded`: the queue's look-up of a case's `case.evidence_superseded` events,
 *   which put the case in the operator's queue until an operator acts on it (caseQueue.ts).
 *
 * The events themselves are rows of case_events (migration 005): verdicts and statuses only, no
 * applicant data, so nothing here is sealed.
 */
export const sql = `
CREATE INDEX idv_results_request ON idv_results (request_id);
CREATE INDEX case_events_superseded ON case_events (case_id, occurred_at) WHERE type = 'case.evidence_superseded';
`;
