/**
 * The events the LOS acts on (reminders, expired steps, SLA breaches, operator actions), derived
 * from the case file without a line of workflow code: the journey's history is being recorded for
 * replay, so these come from what the journey already writes (its read model) and from the operator
 * audit trail.
 *
 * - `case_events`: every event of a case, each under a deterministic id (`case_event_id`, the hash
 *   of what the event is about), inserted with ON CONFLICT DO NOTHING: several workers, a retried
 *   write or a second sweep never make two. The journey's own events (`notifyLos`) are logged here
 *   too (sender `journey`: the activity delivers them); the derived ones (sender `outbox`) are
 *   delivered by the worker's outbox dispatcher (`next_attempt_at` set until delivered or given up).
 *   `GET /v1/cases/{caseId}/events` lists them, in `position` order, for a receiver that missed some.
 * - `case_event_settings`: a case's own reminder and SLA times, given when the case starts; absent
 *   (or null): the deployment's defaults (CASE_EVENTS_ACTION_DUE_AFTER_MS and the others).
 * - `case_link_waits`: since when each step attempt waits on the applicant with a link (the read
 *   model keeps no per-step time), the clock of `case.applicant_action_due`.
 *
 * Triggers compare the old and the new row in the transaction of the write itself, so an event is
 * never lost between a write and its event, whoever writes (the journey's activity, an operator).
 * `case.step_expired`: a step attempt whose state became `expired`. `case.operator_action`: an
 * accepted audit entry, without its free-text reason (it may name the applicant).
 */
export const sql = `
CREATE FUNCTION case_event_id(key text) RETURNS text LANGUAGE sql IMMUTABLE
  AS $$ SELECT 'evt_' || left(encode(sha256(convert_to(key, 'UTF8')), 'hex'), 32) $$;

CREATE TABLE case_events (
  event_id text PRIMARY KEY,
  position bigserial NOT NULL UNIQUE,
  case_id text NOT NULL,
  type text NOT NULL,
  version integer NOT NULL DEFAULT 1,
  occurred_at timestamptz NOT NULL,
  data jsonb NOT NULL,
  sender text NOT NULL CHECK (sender IN ('journey', 'outbox')),
  recorded_at timestamptz NOT NULL DEFAULT now(),
  attempts integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz,
  delivered_at timestamptz,
  given_up_at timestamptz,
  last_error text
);
CREATE INDEX case_events_case ON case_events (case_id, position);
CREATE INDEX case_events_due ON case_events (next_attempt_at) WHERE next_attempt_at IS NOT NULL;

CREATE TABLE case_event_settings (
  case_id text PRIMARY KEY,
  action_due_after_ms bigint,
  action_due_every_ms bigint,
  attention_sla_ms bigint,
  recorded_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE case_link_waits (
  case_id text NOT NULL,
  run_id text NOT NULL,
  step text NOT NULL,
  attempt integer NOT NULL,
  since timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (case_id, run_id, step, attempt)
);

CREATE FUNCTION case_journeys_events() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO case_events (event_id, case_id, type, occurred_at, data, sender, next_attempt_at)
  SELECT case_event_id('step_expired/' || NEW.run_id || '/' || s.key || '/' || s.attempt), NEW.case_id, 'case.step_expired', now(),
         jsonb_build_object('caseId', NEW.case_id, 'workflowId', NEW.workflow_id, 'runId', NEW.run_id,
                            'step', jsonb_build_object('key', s.key, 'attempt', s.attempt), 'reason', s.value->'reason'),
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
CREATE TRIGGER case_journeys_events AFTER INSERT OR UPDATE ON case_journeys FOR EACH ROW EXECUTE FUNCTION case_journeys_events();

CREATE FUNCTION operator_audit_events() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO case_events (event_id, case_id, type, occurred_at, data, sender, next_attempt_at)
  VALUES (case_event_id('operator_action/' || NEW.id), NEW.case_id, 'case.operator_action', NEW.at,
          jsonb_build_object('caseId', NEW.case_id, 'auditId', NEW.id, 'actor', NEW.actor, 'action', NEW.action,
                             'step', NEW.step, 'requestId', NEW.request_id, 'at', NEW.at),
          'outbox', now())
  ON CONFLICT (event_id) DO NOTHING;
  RETURN NULL;
END $$;
CREATE TRIGGER operator_audit_events AFTER INSERT ON operator_audit FOR EACH ROW WHEN (NEW.outcome = 'accepted') EXECUTE FUNCTION operator_audit_events();
`;
