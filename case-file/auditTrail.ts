/**
 * The operator audit trail: one row per operator action, who (the actor), what, on which
 * step, why, under which request id, and what came of it (accepted, or refused with the journey's
 * message). Append-only: the store has no call that changes or removes an entry, but for erasure
 * (purge.ts), which blanks an entry's reason and message and keeps the rest; the database refuses
 * any other UPDATE, and every DELETE (migration 006).
 */
import type { PoolClient } from 'pg';
import { z } from 'zod';

/**
 * A bulk retry is audited case by case, as each case's retryStep under the bulk run's request id;
 * a refresh of a closed case's evidence as refreshEvidence, its step the steps it renews.
 */
export const auditActions = [
  'retryStep',
  'waiveStep',
  'resolvePicklist',
  'cancel',
  'assign',
  'release',
  'refreshEvidence',
] as const;

export const auditEntrySchema = z.object({
  caseId: z.string().min(1),
  actor: z.string().min(1).max(200),
  action: z.enum(auditActions),
  step: z.string().nullable().default(null),
  /** To whom an `assign` gave the case. */
  assignee: z.string().nullable().default(null),
  reason: z.string().nullable().default(null),
  requestId: z.string().nullable().default(null),
  outcome: z.enum(['accepted', 'refused']),
  message: z.string().nullable().default(null),
});
export type AuditEntryInput = z.input<typeof auditEntrySchema>;
export type AuditEntry = z.output<typeof auditEntrySchema> & { id: number; at: string };

/**
 * Appends the entry, once per accepted action: a repeat of a request (the same request id, an
 * `Idempotency-Key`'s Update id, that Temporal answered with the first result) is the same action,
 * so it answers the first entry and appends nothing (nor sends a second `case.operator_action`).
 */
export async function appendAudit(client: PoolClient, raw: AuditEntryInput): Promise<AuditEntry> {
  const e = auditEntrySchema.parse(raw);
  if (e.outcome === 'accepted' && e.requestId !== null) {
    // Two repeats at once: the second waits for the first's transaction, then finds its entry.
    await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`audit/${e.caseId}/${e.requestId}`]);
    const first = await acceptedEntry(client, e.caseId, e.action, e.requestId);
    if (first) return first;
  }
  const { rows } = await client.query<{ id: string; at: Date }>(
    `INSERT INTO operator_audit (case_id, actor, action, step, assignee, reason, request_id, outcome, message)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING id, at`,
    [e.caseId, e.actor, e.action, e.step, e.assignee, e.reason, e.requestId, e.outcome, e.message],
  );
  const row = rows[0] as { id: string; at: Date };
  return { ...e, id: Number(row.id), at: row.at.toISOString() };
}

const columns = 'id, at, case_id, actor, action, step, assignee, reason, request_id, outcome, message';

/** The accepted entry of an action under a request id, if there is one. */
async function acceptedEntry(
  client: PoolClient,
  caseId: string,
  action: string,
  requestId: string,
): Promise<AuditEntry | undefined> {
  const { rows } = await client.query(
    `SELECT ${columns} FROM operator_audit
     WHERE case_id = $1 AND action = $2 AND request_id = $3 AND outcome = 'accepted' ORDER BY id LIMIT 1`,
    [caseId, action, requestId],
  );
  return rows.map(entryOf)[0];
}

/** A case's entries in the order they were appended. */
export async function readAudit(client: PoolClient, caseId: string): Promise<AuditEntry[]> {
  const { rows } = await client.query(`SELECT ${columns} FROM operator_audit WHERE case_id = $1 ORDER BY at, id`, [
    caseId,
  ]);
  return rows.map(entryOf);
}

function entryOf(r: Record<string, unknown>): AuditEntry {
  return {
    id: Number(r.id),
    at: (r.at as Date).toISOString(),
    caseId: r.case_id as string,
    actor: r.actor as string,
    action: r.action as AuditEntry['action'],
    step: (r.step as string | null) ?? null,
    assignee: (r.assignee as string | null) ?? null,
    reason: (r.reason as string | null) ?? null,
    requestId: (r.request_id as string | null) ?? null,
    outcome: r.outcome as AuditEntry['outcome'],
    message: (r.message as string | null) ?? null,
  };
}
