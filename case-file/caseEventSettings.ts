/**
 * A case's own reminder and SLA times for the events the LOS acts on, given when the case starts and kept in the case
 * file, never in the journey's input: the journey does not use them (events are derived outside
 * it), and changing them needs no new workflow code. Unset fields take the deployment's defaults.
 */
import type { PoolClient } from 'pg';

export interface CaseEventSettings {
  actionDueAfterMs?: number | undefined;
  actionDueEveryMs?: number | undefined;
  attentionSlaMs?: number | undefined;
}

/** Idempotent: a start repeated with other times keeps the first ones (the case exists already). */
export async function recordCaseEventSettings(client: PoolClient, caseId: string, s: CaseEventSettings): Promise<void> {
  await client.query(
    `INSERT INTO case_event_settings (case_id, action_due_after_ms, action_due_every_ms, attention_sla_ms)
     VALUES ($1, $2, $3, $4)
     ON CONFLICT (case_id) DO NOTHING`,
    [caseId, s.actionDueAfterMs ?? null, s.actionDueEveryMs ?? null, s.attentionSlaMs ?? null],
  );
}
