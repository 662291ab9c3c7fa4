/**
 * A later provider result that contradicts the one a journey used: recorded as
 * `case.evidence_superseded` in the case's events (the outbox sends it to the LOS), which puts the
 * case in the operator's queue (caseQueue.ts). Deliveries reach here as sightings: the resource
 * workflow hands over what came while no step waited (activities/sightingActivities.ts).
 *
 * - An IDV request's result: the step's current request, whose result the case file recorded
 *   (idv_results), and another verdict came for it.
 * - The case's banking: the banking step completed with a connection, and an outcome came for
 *   another connection, or the connection was rejected.
 *
 * The event holds verdicts, statuses and provider ids only (no applicant data). Its id is derived
 * from what it is about, so the same later result delivered twice is one event.
 */
import type { PoolClient } from 'pg';
import { z } from 'zod';

export const laterResultSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('identityVerification'),
    requestId: z.string().min(1),
    verificationStatus: z.string().min(1),
  }),
  z.object({
    kind: z.literal('bankTransactions'),
    caseId: z.string().min(1),
    bankConnectionId: z.string().min(1).nullable(),
    status: z.string().min(1),
  }),
]);
export type LaterResult = z.infer<typeof laterResultSchema>;

const idvSuperseded = `
INSERT INTO case_events (event_id, case_id, type, occurred_at, data, sender, next_attempt_at)
SELECT case_event_id('evidence_superseded/' || j.case_id || '/idv/' || $1 || '/' || $2), j.case_id,
  'case.evidence_superseded', now(),
  jsonb_build_object('caseId', j.case_id, 'workflowId', j.workflow_id, 'runId', j.run_id, 'step', u.step,
    'kind', 'identityVerification', 'providerId', $1::text,
    'used', jsonb_build_object('verificationStatus', u.verification_status),
    'came', jsonb_build_object('verificationStatus', $2::text))
    || case_reference_data(j.case_id),
  'outbox', now()
FROM (SELECT r.case_id, 'identity-verification/' || r.person_id AS step, r.verification_status FROM idv_results r
      WHERE r.request_id = $1 ORDER BY r.recorded_at DESC LIMIT 1) u
JOIN case_journeys j ON j.case_id = u.case_id
WHERE j.steps->u.step->'providerIds'->>'request_id' = $1
  AND u.verification_status IS DISTINCT FROM $2
ON CONFLICT (event_id) DO NOTHING`;

/** A connection's outcome that agrees with a completed banking step: the same connection, connected. */
const bankingSuperseded = `
INSERT INTO case_events (event_id, case_id, type, occurred_at, data, sender, next_attempt_at)
SELECT case_event_id('evidence_superseded/' || j.case_id || '/banking/' || COALESCE($2, '') || '/' || $3), j.case_id,
  'case.evidence_superseded', now(),
  jsonb_build_object('caseId', j.case_id, 'workflowId', j.workflow_id, 'runId', j.run_id, 'step', 'banking',
    'kind', 'bankTransactions', 'providerId', $2::text,
    'used', jsonb_build_object('status', 'Connected',
      'bankConnectionId', j.steps->'banking'->'providerIds'->>'bank_connection_id'),
    'came', jsonb_build_object('status', $3::text, 'bankConnectionId', $2::text))
    || case_reference_data(j.case_id),
  'outbox', now()
FROM case_journeys j
WHERE lower(j.case_id) = lower($1) AND j.steps->'banking'->>'state' = 'completed'
  AND ($2::text IS DISTINCT FROM j.steps->'banking'->'providerIds'->>'bank_connection_id'
    OR $3::text NOT IN ('Connected', 'Complete'))
ON CONFLICT (event_id) DO NOTHING`;

/** Records each later result that contradicts what its journey used; answers how many events were new. */
export async function recordLaterResults(client: PoolClient, results: readonly LaterResult[]): Promise<number> {
  let recorded = 0;
  for (const result of results) {
    const inserted =
      result.kind === 'identityVerification'
        ? await client.query(idvSuperseded, [result.requestId, result.verificationStatus])
        : await client.query(bankingSuperseded, [result.caseId, result.bankConnectionId, result.status]);
    recorded += inserted.rowCount ?? 0;
  }
  return recorded;
}
