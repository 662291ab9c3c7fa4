/**
 * A case's timeline: the operator actions of the audit trail, what the provider returned, as the
 * case file recorded it (a report read, an IDV result, an account, an insight, a document's outcome),
 * and the events the LOS took, in time order: the journey's own (`notification`, case_notifications)
 * and those the outbox delivered (`case_event`: reminders, expiries, SLA breaches, operator actions;
 * the evidence's expiring and superseded items from when they were recorded, delivered or not).
 * Records and events carry their kind, ids and status, never their data.
 */
import type { PoolClient } from 'pg';
import { evidenceEventTypes } from './evidenceEventTypes';
import { readAudit, type AuditEntry } from './auditTrail';

export type TimelineEntry =
  | ({ kind: 'operator_action' } & AuditEntry)
  | { kind: 'provider_record'; at: string; record: string; attemptId: string; id: string; status: string | null }
  | {
      kind: 'notification';
      at: string;
      type: string;
      state: string;
      step: string | null;
      runId: string;
      sequence: number;
    }
  | { kind: 'case_event'; at: string; type: string; eventId: string; step: string | null };

/** An event the LOS took: written by `notifyLos` once it was delivered. */
export interface SentNotification {
  caseId: string;
  runId: string;
  sequence: number;
  type: string;
  state: string;
  step: string | null;
  occurredAt: string;
}

export async function recordNotification(client: PoolClient, n: SentNotification): Promise<void> {
  await client.query(
    `INSERT INTO case_notifications (case_id, run_id, sequence, type, state, step, occurred_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7)
     ON CONFLICT (run_id, sequence) DO NOTHING`,
    [n.caseId, n.runId, n.sequence, n.type, n.state, n.step, n.occurredAt],
  );
}

/** Each table's provider id and status column (a bank account has no status of its own). */
const recordTables = [
  { record: 'credit_report', table: 'credit_reports', id: 'report_id', status: 'status' },
  { record: 'idv_result', table: 'idv_results', id: 'request_id', status: 'status' },
  { record: 'bank_account', table: 'bank_accounts', id: 'account_connection_id', status: 'NULL' },
  { record: 'affordability_insight', table: 'affordability_insights', id: 'request_id', status: 'status' },
  { record: 'income_employer_result', table: 'income_employer_results', id: 'request_id', status: 'status' },
  { record: 'provider_document', table: 'provider_documents', id: 'provider_document_id', status: 'status' },
] as const;

export async function readCaseTimeline(client: PoolClient, caseId: string): Promise<TimelineEntry[]> {
  const union = recordTables
    .map(
      (t) =>
        `SELECT recorded_at AS at, '${t.record}' AS record, attempt_id, ${t.id} AS id, ` +
        `${t.status}::text AS status FROM ${t.table} WHERE case_id = $1`,
    )
    .join(' UNION ALL ');
  const { rows } = await client.query(`${union} ORDER BY at`, [caseId]);
  const records: TimelineEntry[] = rows.map((r: Record<string, unknown>) => ({
    kind: 'provider_record',
    at: (r.at as Date).toISOString(),
    record: r.record as string,
    attemptId: r.attempt_id as string,
    id: r.id as string,
    status: (r.status as string | null) ?? null,
  }));
  const actions: TimelineEntry[] = (await readAudit(client, caseId)).map((e) => ({ kind: 'operator_action', ...e }));
  const sent = await client.query(
    'SELECT * FROM case_notifications WHERE case_id = $1 ORDER BY sent_at, run_id, sequence',
    [caseId],
  );
  const notifications: TimelineEntry[] = sent.rows.map((r: Record<string, unknown>) => ({
    kind: 'notification',
    at: (r.sent_at as Date).toISOString(),
    type: r.type as string,
    state: r.state as string,
    step: (r.step as string | null) ?? null,
    runId: r.run_id as string,
    sequence: r.sequence as number,
  }));
  // A stable merge: entries at the same instant keep their own order.
  return [...actions, ...records, ...notifications, ...(await readDeliveredOutboxEvents(client, caseId))].sort((a, b) =>
    a.at.localeCompare(b.at),
  );
}

/**
 * The derived events (migration 005, sender `outbox`) the LOS took, at the time it took them. The
 * journey's own events are in case_events too (sender `journey`), but the timeline has them from
 * case_notifications already. Only the type, the id and the step key: an event's data can hold a
 * step's reason (the events endpoint serves the body to whoever needs it, under the same id).
 * The evidence's events (an item about to go stale, an item superseded by a later provider result)
 * say something about the case itself, which the operator must see whether or not an LOS is
 * configured or has taken them: those are on the timeline from when they were recorded.
 */
async function readDeliveredOutboxEvents(client: PoolClient, caseId: string): Promise<TimelineEntry[]> {
  const { rows } = await client.query(
    `SELECT event_id, type, at,
            CASE jsonb_typeof(data->'step') WHEN 'object' THEN data->'step'->>'key' WHEN 'string' THEN data->>'step'
              END AS step
     FROM (SELECT *, CASE WHEN type = ANY($2) THEN recorded_at ELSE delivered_at END AS at FROM case_events
           WHERE case_id = $1 AND sender = 'outbox') e
     WHERE at IS NOT NULL ORDER BY at, position`,
    [caseId, [...evidenceEventTypes]],
  );
  return rows.map((r: Record<string, unknown>) => ({
    kind: 'case_event',
    at: (r.at as Date).toISOString(),
    type: r.type as string,
    eventId: r.event_id as string,
    step: (r.step as string | null) ?? null,
  }));
}
