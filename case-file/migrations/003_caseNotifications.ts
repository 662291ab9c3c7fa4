/**
 * The journey's events the LOS took (case-events/), one row per event, so a case's timeline shows
 * what the lender's system was told and when. Keyed by the run and the event's sequence: the
 * activity that sent it may be retried and records it again as the same row.
 */
export const sql = `
CREATE TABLE case_notifications (
  case_id text NOT NULL,
  run_id text NOT NULL,
  sequence integer NOT NULL,
  type text NOT NULL,
  state text NOT NULL,
  step text,
  occurred_at timestamptz NOT NULL,
  sent_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (run_id, sequence)
);
CREATE INDEX case_notifications_case ON case_notifications (case_id, sent_at);
`;
