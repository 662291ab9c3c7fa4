/**
 * What the funnel (case-file/funnel.ts) needs and the read model does not keep: when each step
 * changed state. The read model holds one row per case, its steps as the last write left them;
 * case_link_waits holds when a wait on the applicant began but not when it ended, and no other
 * table says when a step was reached, settled, or began and stopped waiting on an operator.
 *
 * - `case_step_transitions`: one row per step per change of its state (or attempt, or of whether it
 *   waits on the applicant with a link), written by a trigger on case_journeys in the transaction
 *   of the write itself, so no workflow code changes: only writes that change the row (the newest
 *   of the run, case-file/caseReadModel.ts) fire it, so a late or repeated write records nothing.
 * - `case_file_clock()`: the time a write is stamped with: the transaction's start (`now()`),
 *   unless the transaction pinned another with `set_config('case_file.clock', <time>, true)`
 *   (case-file/caseFileClock.ts: an import of past journeys, a test of known timings). The audit
 *   trail's `at` takes it too, so both sides of an operator's time to first action share one clock.
 *
 * A case written before this migration has no transitions: the funnel counts it from the writes
 * that come after.
 */
export const sql = `
CREATE FUNCTION case_file_clock() RETURNS timestamptz LANGUAGE sql STABLE
  AS $$ SELECT COALESCE(NULLIF(current_setting('case_file.clock', true), '')::timestamptz, now()) $$;

ALTER TABLE operator_audit ALTER COLUMN at SET DEFAULT case_file_clock();

CREATE TABLE case_step_transitions (
  id bigserial PRIMARY KEY,
  case_id text NOT NULL,
  run_id text NOT NULL,
  step text NOT NULL,
  attempt integer NOT NULL,
  state text NOT NULL,
  on_applicant boolean NOT NULL,
  at timestamptz NOT NULL
);
CREATE INDEX case_step_transitions_case ON case_step_transitions (case_id, step, at, id);

CREATE FUNCTION case_step_transitions() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  before jsonb := '{}'::jsonb;
BEGIN
  IF TG_OP = 'UPDATE' THEN
    before := OLD.steps;
  END IF;
  INSERT INTO case_step_transitions (case_id, run_id, step, attempt, state, on_applicant, at)
  SELECT NEW.case_id, NEW.run_id, s.key, s.attempt, s.state, s.on_applicant, case_file_clock()
  FROM (
    SELECT key, COALESCE(value->>'state', '') AS state, COALESCE((value->>'attempt')::int, 1) AS attempt,
           COALESCE(value->>'state' = 'waiting' AND jsonb_typeof(value->'links') = 'object'
             AND value->'links' <> '{}'::jsonb, false) AS on_applicant,
           before->key AS was
    FROM jsonb_each(NEW.steps)
  ) s
  WHERE s.was IS NULL
     OR s.was->>'state' IS DISTINCT FROM s.state
     OR COALESCE((s.was->>'attempt')::int, 1) <> s.attempt
     OR COALESCE(s.was->>'state' = 'waiting' AND jsonb_typeof(s.was->'links') = 'object'
         AND s.was->'links' <> '{}'::jsonb, false) <> s.on_applicant;
  RETURN NULL;
END $$;
CREATE TRIGGER case_step_transitions AFTER INSERT OR UPDATE ON case_journeys FOR EACH ROW EXECUTE FUNCTION case_step_transitions();
`;
