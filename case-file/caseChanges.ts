/**
 * Marks that change whenever what a viewer sees changes, read from the case file alone:
 * the console's live updates wait for a mark to change instead of asking Temporal.
 *
 * - A case's mark: its row's revision (every journey write and assignment takes a new one) and its
 *   latest audit entry (a refused action changes no state, yet shows on the timeline).
 * - The queue's mark: how many cases and the sum of their revisions, which grows at every write
 *   (migration 004 says why a maximum would miss some).
 */
import type { PoolClient } from 'pg';

/** Each case's mark, for the cases the read model holds. */
export async function readCaseMarks(client: PoolClient, caseIds: readonly string[]): Promise<Map<string, string>> {
  const { rows } = await client.query<{ case_id: string; mark: string }>(
    `SELECT j.case_id, j.revision::text || '.' || COALESCE((SELECT max(a.id) FROM operator_audit a
       WHERE a.case_id = j.case_id), 0)::text AS mark
     FROM case_journeys j WHERE j.case_id = ANY($1::text[])`,
    [caseIds],
  );
  return new Map(rows.map((r) => [r.case_id, r.mark]));
}

export async function readQueueMark(client: PoolClient): Promise<string> {
  const { rows } = await client.query<{ mark: string }>(
    `SELECT count(*)::text || '.' || COALESCE(sum(revision), 0)::text AS mark FROM case_journeys`,
  );
  return rows[0]?.mark ?? '0.0';
}
