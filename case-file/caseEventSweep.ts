/**
 * The events that come from time passing, not from a write: an applicant who has not
 * acted on a link (`case.applicant_action_due`, every `every` after `after`, until the step
 * attempt stops waiting), a case that needs attention longer than its SLA (`case.sla_breached`,
 * once per time it came to need attention) and an item of a case's evidence about to go stale
 * (`case.evidence_expiring`, once per item and validUntil, for running and closed cases alike:
 * the item is what expires). Each carries the lender's reference of a case started
 * with one (migration 010). Each event's id is derived from what it is about, so a
 * sweep that runs twice, or on several workers at once, inserts each one once.
 */
import type { PoolClient } from 'pg';

export interface SweepDefaults {
  actionDueAfterMs: number;
  actionDueEveryMs: number;
  attentionSlaMs: number;
  /** How long before an item's validUntil `case.evidence_expiring` is sent; absent: 3 days. */
  evidenceExpiringBeforeMs?: number;
}

const defaultExpiringBeforeMs = 259_200_000;

/** The reminder due now, numbered from 1 (a sweep that ran late sends the latest, not the ones it missed). */
const actionDue = `
INSERT INTO case_events (event_id, case_id, type, occurred_at, data, sender, next_attempt_at)
SELECT case_event_id('action_due/' || w.run_id || '/' || w.step || '/' || w.attempt || '/' || d.n), w.case_id,
  'case.applicant_action_due', now(),
       jsonb_build_object('caseId', w.case_id, 'workflowId', j.workflow_id, 'runId', w.run_id,
                          'step', jsonb_build_object('key', w.step, 'attempt', w.attempt),
                          'reminder', d.n, 'waitingSince', w.since, 'dueAfterMs', t.after_ms, 'everyMs', t.every_ms)
         || case_reference_data(w.case_id),
       'outbox', now()
FROM case_link_waits w
JOIN case_journeys j ON j.case_id = w.case_id AND j.run_id = w.run_id AND j.run_status = 'RUNNING'
LEFT JOIN case_event_settings s ON s.case_id = w.case_id
CROSS JOIN LATERAL (SELECT COALESCE(s.action_due_after_ms, $1) AS after_ms,
  COALESCE(s.action_due_every_ms, $2) AS every_ms) t
CROSS JOIN LATERAL (SELECT floor((extract(epoch FROM now() - w.since) * 1000 - t.after_ms) / t.every_ms)::bigint + 1
  AS n) d
WHERE j.steps->w.step->>'state' = 'waiting'
  AND COALESCE((j.steps->w.step->>'attempt')::int, 1) = w.attempt
  AND jsonb_typeof(j.steps->w.step->'links') = 'object' AND j.steps->w.step->'links' <> '{}'::jsonb
  AND w.since + t.after_ms * interval '1 millisecond' <= now()
ON CONFLICT (event_id) DO NOTHING`;

const slaBreached = `
INSERT INTO case_events (event_id, case_id, type, occurred_at, data, sender, next_attempt_at)
SELECT case_event_id('sla_breached/' || j.run_id || '/' || (extract(epoch FROM j.waiting_since) * 1000)::bigint),
  j.case_id, 'case.sla_breached', now(),
       jsonb_build_object('caseId', j.case_id, 'workflowId', j.workflow_id, 'runId', j.run_id,
         'waitingSince', j.waiting_since,
                          'slaMs', t.sla_ms, 'operatorDeadline', j.operator_deadline, 'reasons', j.reasons)
         || case_reference_data(j.case_id),
       'outbox', now()
FROM case_journeys j
LEFT JOIN case_event_settings s ON s.case_id = j.case_id
CROSS JOIN LATERAL (SELECT COALESCE(s.attention_sla_ms, $1) AS sla_ms) t
WHERE j.state = 'needs_attention' AND j.run_status = 'RUNNING' AND j.waiting_since IS NOT NULL
  AND j.waiting_since + t.sla_ms * interval '1 millisecond' <= now()
ON CONFLICT (event_id) DO NOTHING`;

/**
 * Each step's evidence as the journey reports it (client/evidenceValidity.ts `EvidenceValidity`),
 * kept on the step in the read model (`steps[key].evidence`). An item whose validUntil is not an
 * ISO 8601 time is skipped rather than failing the sweep.
 */
const evidenceExpiring = `
INSERT INTO case_events (event_id, case_id, type, occurred_at, data, sender, next_attempt_at)
SELECT case_event_id('evidence_expiring/' || j.case_id || '/' || e.key || '/' || (e.value->>'validUntil')),
  j.case_id, 'case.evidence_expiring', now(),
       jsonb_build_object('caseId', j.case_id, 'workflowId', j.workflow_id, 'runId', j.run_id, 'step', e.key,
                          'kind', e.value->>'kind', 'validUntil', e.value->>'validUntil', 'expiringBeforeMs', $1::bigint)
         || case_reference_data(j.case_id),
       'outbox', now()
FROM case_journeys j
CROSS JOIN LATERAL (SELECT s.key, s.value->'evidence' AS value FROM jsonb_each(j.steps) s) e
WHERE jsonb_typeof(e.value) = 'object'
  AND e.value->>'validUntil' ~ '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}(:\\d{2}(\\.\\d+)?)?(Z|[+-]\\d{2}:?\\d{2})$'
  AND (e.value->>'validUntil')::timestamptz - $1::bigint * interval '1 millisecond' <= now()
ON CONFLICT (event_id) DO NOTHING`;

/** Inserts the events that are due; answers how many were new. */
export async function sweepCaseEvents(
  client: PoolClient,
  defaults: SweepDefaults,
): Promise<{ actionDue: number; slaBreached: number; evidenceExpiring: number }> {
  const due = await client.query(actionDue, [defaults.actionDueAfterMs, defaults.actionDueEveryMs]);
  const sla = await client.query(slaBreached, [defaults.attentionSlaMs]);
  const expiring = await client.query(evidenceExpiring, [defaults.evidenceExpiringBeforeMs ?? defaultExpiringBeforeMs]);
  return { actionDue: due.rowCount ?? 0, slaBreached: sla.rowCount ?? 0, evidenceExpiring: expiring.rowCount ?? 0 };
}
