/**
 * How each case was started through the case API: the request as the API took it (so a repeat is
 * compared with it, field by field, and a changed one refused rather than dropped) and the lender's
 * own reference for the case, by which the API's list finds it.
 */
export const sql = `
CREATE TABLE case_starts (
  case_id text PRIMARY KEY,
  reference text,
  request jsonb NOT NULL,
  recorded_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX case_starts_reference ON case_starts (reference, case_id) WHERE reference IS NOT NULL;
`;
