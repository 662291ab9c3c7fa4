/**
 * The start request of each case, as the case API took it: the first one is kept, so that a
 * repeat can be compared with it (the same request answers as the first; another is refused,
 * naming what differs), and the lender's reference is searchable. The name of the API key that
 * started the case is kept with it (migration 012): a key scoped to its own cases sees only those.
 */
import type { Pool } from 'pg';
import { inTransaction } from './transaction';

export interface CaseStart {
  caseId: string;
  reference: string | null;
  request: Record<string, unknown>;
}

/**
 * Keeps the request, and the name of the key that sent it (`startedBy`), unless the case has a
 * start already; answers the one kept (this request when it was the first).
 */
export function recordCaseStart(pool: Pool, start: CaseStart & { startedBy?: string }): Promise<CaseStart> {
  return inTransaction(pool, async (client) => {
    await client.query(
      `INSERT INTO case_starts (case_id, reference, request, started_by) VALUES ($1, $2, $3, $4)
       ON CONFLICT (case_id) DO NOTHING`,
      [start.caseId, start.reference, JSON.stringify(start.request), start.startedBy ?? null],
    );
    const { rows } = await client.query<{ reference: string | null; request: Record<string, unknown> }>(
      'SELECT reference, request FROM case_starts WHERE case_id = $1',
      [start.caseId],
    );
    const kept = rows[0]!;
    return { caseId: start.caseId, reference: kept.reference, request: kept.request };
  });
}

/** The kept start of a case, if the case API started it. */
export function caseStartOf(pool: Pool, caseId: string): Promise<CaseStart | undefined> {
  return inTransaction(pool, async (client) => {
    const { rows } = await client.query<{ reference: string | null; request: Record<string, unknown> }>(
      'SELECT reference, request FROM case_starts WHERE case_id = $1',
      [caseId],
    );
    const kept = rows[0];
    return kept && { caseId, reference: kept.reference, request: kept.request };
  });
}

/**
 * Who started a case: the API key's name; null for a case started without one (the CLI, or before
 * migration 012); undefined when the case API never started the case.
 */
export function caseStarterOf(pool: Pool, caseId: string): Promise<string | null | undefined> {
  return inTransaction(pool, async (client) => {
    const { rows } = await client.query<{ started_by: string | null }>(
      'SELECT started_by FROM case_starts WHERE case_id = $1',
      [caseId],
    );
    return rows[0]?.started_by;
  });
}
