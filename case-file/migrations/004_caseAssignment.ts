/**
 * Assignment and change marks.
 *
 * - `case_journeys.assignee`: the operator who owns the case (null: nobody), set and cleared by
 *   operators, never by the journey: the journey's writes leave it as it is.
 * - `case_journeys.revision`: a number from one sequence, taken again by every write of the row
 *   (the journey's, an assignment). A new value is larger than any handed out before, so the sum
 *   over the table grows at every change: the console's live updates wait for it to change
 *   instead of asking Temporal (case-file/caseChanges.ts). A maximum would not do: a transaction
 *   that took its value earlier may commit later.
 * - `operator_audit.assignee`: to whom an assign action gave the case.
 */
export const sql = `
CREATE SEQUENCE case_journeys_revision;
ALTER TABLE case_journeys
  ADD COLUMN assignee text,
  ADD COLUMN assigned_at timestamptz,
  ADD COLUMN revision bigint NOT NULL DEFAULT nextval('case_journeys_revision');
CREATE INDEX case_journeys_assignee ON case_journeys (assignee, started_at, case_id);
ALTER TABLE operator_audit ADD COLUMN assignee text;
`;
