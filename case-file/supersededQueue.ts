/**
 * The queue's view of superseded evidence (supersededEvidence.ts): a case with a
 * `case.evidence_superseded` event of its current run that no operator has acted on since (any
 * accepted action of the audit trail: an assignment, a retry, a waiver…) is in the operator's
 * queue, closed or not, with a reason line per item. A new run, or an operator's action, ends it.
 */
import { z } from 'zod';
import { caseRecordOf, type CaseRecord } from './caseReadModel';

/** A `case.evidence_superseded` event of the case's current run that no operator has acted on since. */
export const openSupersession = `e.case_id = j.case_id AND e.type = 'case.evidence_superseded'
  AND e.occurred_at > j.run_started_at
  AND NOT EXISTS (SELECT 1 FROM operator_audit a WHERE a.case_id = j.case_id AND a.outcome = 'accepted'
    AND a.at >= e.occurred_at)`;

export const supersededColumn = `(SELECT jsonb_agg(e.data ORDER BY e.position) FROM case_events e
  WHERE ${openSupersession}) AS superseded`;

const supersededSchema = z.array(
  z.looseObject({
    step: z.string(),
    used: z.record(z.string(), z.unknown()),
    came: z.record(z.string(), z.unknown()),
  }),
);

/** The record, with a reason line first for each item of its evidence superseded and not yet acted on. */
export function withSupersededReasons(row: Record<string, unknown>): CaseRecord {
  const record = caseRecordOf(row);
  const items = supersededSchema.safeParse(row.superseded ?? []);
  if (!items.success || items.data.length === 0) return record;
  const lines = items.data.map((item) => `${item.step}: evidence superseded (${change(item.used, item.came)})`);
  return { ...record, reasons: [...lines, ...record.reasons] };
}

/** What changed, in the event's own terms: `verification Approved, then Declined`. */
function change(used: Record<string, unknown>, came: Record<string, unknown>): string {
  if ('verificationStatus' in came)
    return `verification ${String(used.verificationStatus)}, then ${String(came.verificationStatus)}`;
  const connection = (side: Record<string, unknown>) =>
    `${String(side.status)}${side.bankConnectionId ? ` ${String(side.bankConnectionId)}` : ''}`;
  return `connection ${connection(used)}, then ${connection(came)}`;
}
