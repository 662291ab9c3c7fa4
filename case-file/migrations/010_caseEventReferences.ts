/**
 * The lender's reference (case_starts.reference, migration 009) in the data of every event derived
 * from the case file, as the journey's own events carry it from the journey input: the LOS finds
 * each event's case by its own id. `case_reference_data(case_id)`: `{"reference": …}` for a case
 * started with one, `{}` otherwise (an event of a case without one has no such field, never null);
 * the triggers of migration 005 are redefined to add it, and the sweep (case-file/caseEventSweep.ts)
 * adds it too.
 */
export const sql = `
CREATE FUNCTION case_reference_data(case_id text) RETURNS jsonb LANGUAGE sql STABLE
  AS $$ SELECT jsonb_strip_nulls(jsonb_build_object('reference',
    (SELECT s.reference FROM case_starts s WHERE s.case_id = $1))) $$;

CREATE OR REPLACE FUNCTION case_journeys_events() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO case_events (event_id, case_id, type, occurred_at, data, sender, next_attempt_at)
  SELECT case_event_id('step_expired/' || NEW.run_id || '/' || s.key || '/' || s.attempt), NEW.case_id, 'case.step_expired', now(),
         jsonb_build_object('caseId', NEW.case_id, 'workflowId', NEW.workflow_id, 'runId', NEW.run_id,
                            'step', jsonb_build_object('key', s.key, 'attempt', s.attempt), 'reason', s.value->'reason')
           || case_reference_data(NEW.case_id),
         'outbox', now()
  FROM (SELECT key, value, COALESCE((value->>'attempt')::int, 1) AS attempt FROM jsonb_each(NEW.steps)) s
  WHERE s.value->>'state' = 'expired'
    AND NOT (TG_OP = 'UPDATE' AND OLD.run_id = NEW.run_id AND OLD.steps->s.key->>'state' = 'expired'
             AND COALESCE((OLD.steps->s.key->>'attempt')::int, 1) = s.attempt)
  ON CONFLICT (event_id) DO NOTHING;

  INSERT INTO case_link_waits (case_id, run_id, step, attempt)
  SELECT NEW.case_id, NEW.run_id, s.key, COALESCE((s.value->>'attempt')::int, 1)
  FROM jsonb_each(NEW.steps) s
  WHERE s.value->>'state' = 'waiting' AND jsonb_typeof(s.value->'links') = 'object' AND s.value->'links' <> '{}'::jsonb
  ON CONFLICT DO NOTHING;
  RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION operator_audit_events() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO case_events (event_id, case_id, type, occurred_at, data, sender, next_attempt_at)
  VALUES (case_event_id('operator_action/' || NEW.id), NEW.case_id, 'case.operator_action', NEW.at,
          jsonb_build_object('caseId', NEW.case_id, 'auditId', NEW.id, 'actor', NEW.actor, 'action', NEW.action,
                             'step', NEW.step, 'requestId', NEW.request_id, 'at', NEW.at)
            || case_reference_data(NEW.case_id),
          'outbox', now())
  ON CONFLICT (event_id) DO NOTHING;
  RETURN NULL;
END $$;
`;
