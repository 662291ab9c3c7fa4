/**
 * Who owns a case: an operator assigns it to themself or to a colleague, and releases
 * it. The assignment and its audit entry are written in one transaction, so the trail never
 * misses an assignment nor records one that did not happen. The journey never writes it.
 */
import type { PoolClient } from 'pg';
import { appendAudit, type AuditEntry } from './auditTrail';

export interface Assignment {
  caseId: string;
  /** Null: released, nobody owns the case. */
  assignee: string | null;
  assignedAt: string | null;
}

export interface AssignRequest {
  caseId: string;
  assignee: string | null;
  actor: string;
  reason: string | null;
  /** The request's id, for the audit entry. */
  requestId?: string | null;
}

/** The case's new assignment and its audit entry; undefined when the read model holds no such case. */
export async function assignCase(
  client: PoolClient,
  request: AssignRequest,
): Promise<{ assignment: Assignment; audit: AuditEntry } | undefined> {
  const { rows } = await client.query<{ assignee: string | null; assigned_at: Date | null }>(
    `UPDATE case_journeys SET assignee = $2::text, assigned_at = CASE WHEN $2::text IS NULL THEN NULL ELSE now() END,
       updated_at = now(), revision = nextval('case_journeys_revision')
     WHERE case_id = $1 RETURNING assignee, assigned_at`,
    [request.caseId, request.assignee],
  );
  const row = rows[0];
  if (!row) return undefined;
  const audit = await appendAudit(client, {
    caseId: request.caseId,
    actor: request.actor,
    action: request.assignee === null ? 'release' : 'assign',
    assignee: request.assignee,
    reason: request.reason,
    requestId: request.requestId ?? null,
    outcome: 'accepted',
  });
  return {
    assignment: { caseId: request.caseId, assignee: row.assignee, assignedAt: row.assigned_at?.toISOString() ?? null },
    audit,
  };
}
