/**
 * The operations desk: what the API, the console and the CLI read instead of asking
 * Temporal.
 *
 * - `case_journeys`: one row per case, the journey's latest state as the journey wrote it (an
 *   activity at every change). Writes are ordered by (`run_started_at`, `version`): a write whose
 *   pair is not newer than the stored one changes nothing, so a late or repeated write never
 *   overwrites a newer state, and a new run (`journey retry`, a reset) takes over from the old one.
 *   A closed run's final state stays.
 * - `case_parties`: the case's company and people by name, as the client that started the case
 *   gave them. Names are searched here, never in histories or search attributes.
 * - `operator_audit`: append-only, one row per operator action and its outcome.
 */
export const sql = `
CREATE TABLE case_journeys (
  case_id text PRIMARY KEY,
  workflow_id text NOT NULL,
  run_id text NOT NULL,
  run_started_at timestamptz NOT NULL,
  version integer NOT NULL,
  state text NOT NULL,
  run_status text NOT NULL,
  outcome text,
  steps jsonb NOT NULL,
  reasons jsonb NOT NULL,
  provider_ids jsonb NOT NULL,
  links jsonb NOT NULL,
  picklist jsonb,
  waiting_since timestamptz,
  operator_deadline timestamptz,
  started_at timestamptz NOT NULL,
  closed_at timestamptz,
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX case_journeys_state_started ON case_journeys (state, started_at, case_id);
CREATE INDEX case_journeys_started ON case_journeys (started_at, case_id);
CREATE INDEX case_journeys_deadline ON case_journeys (operator_deadline, case_id);

CREATE TABLE case_parties (
  case_id text NOT NULL,
  role text NOT NULL CHECK (role IN ('company', 'applicant')),
  party_id text NOT NULL,
  name text,
  recorded_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (case_id, role, party_id)
);

CREATE TABLE operator_audit (
  id bigserial PRIMARY KEY,
  at timestamptz NOT NULL DEFAULT now(),
  case_id text NOT NULL,
  actor text NOT NULL,
  action text NOT NULL,
  step text,
  reason text,
  request_id text,
  outcome text NOT NULL CHECK (outcome IN ('accepted', 'refused')),
  message text
);
CREATE INDEX operator_audit_case ON operator_audit (case_id, at, id);
`;
