/**
 * Lists of cases from the read model: filtered by state, step and step state, how long a case has
 * waited for an operator, who owns it, and company or applicant name (case-insensitive, from the case file's
 * own records); sorted by age or by deadline (the operator deadline, or sooner the expiry of a
 * picklist wait); paginated by a keyset cursor, so a page never repeats or skips a case when others
 * are written meanwhile.
 *
 * A case whose evidence was superseded (supersededEvidence.ts: a later provider result contradicts
 * one its journey used) is in the operator's queue (`state=needs_attention`) whatever its journey's
 * state, closed cases too, with a reason line per item, until an operator acts on the case (any
 * accepted action of the audit trail: an assignment, a retry, a waiver…) or a new run starts.
 */
import type { PoolClient } from 'pg';
import { z } from 'zod';
import { caseRecordColumns, type CaseRecord } from './caseReadModel';
import { openSupersession, supersededColumn, withSupersededReasons } from './supersededQueue';

export const caseSorts = ['newest', 'oldest', 'deadline'] as const;

export const caseListQuerySchema = z.object({
  state: z.string().min(1).optional(),
  /** A step key (`banking`), or a step kind that matches every person's (`identity-verification`). */
  step: z.string().min(1).optional(),
  stepState: z.string().min(1).optional(),
  /** Only cases that have waited for an operator at least this long. */
  waitingLongerThanMs: z.number().int().min(0).optional(),
  /** Part of the company's or an applicant's name, any case. */
  name: z.string().min(1).max(200).optional(),
  /** The lender's own reference for the case, exactly as it was started with (migration 009). */
  reference: z.string().min(1).max(200).optional(),
  /** Only the cases this API key started (migration 012): what a key scoped to its own cases lists. */
  startedBy: z.string().min(1).max(64).optional(),
  /** The operator who owns the case; the empty string: cases nobody owns. */
  assignee: z.string().max(200).optional(),
  sort: z.enum(caseSorts).default('newest'),
  limit: z.number().int().min(1).max(500).default(50),
  cursor: z.string().min(1).optional(),
});
export type CaseListQuery = z.input<typeof caseListQuerySchema>;

export interface CasePage {
  cases: CaseRecord[];
  /** Null on the last page. */
  nextCursor: string | null;
}

export class InvalidCursorError extends Error {
  constructor() {
    super('the cursor is not one an earlier page answered');
  }
}

/** The sort key as exact text (epoch seconds), so a cursor compares equal to the row it came from. */
const sortKeys: Record<(typeof caseSorts)[number], { expression: string; direction: 'ASC' | 'DESC' }> = {
  newest: { expression: 'EXTRACT(EPOCH FROM j.started_at)', direction: 'DESC' },
  oldest: { expression: 'EXTRACT(EPOCH FROM j.started_at)', direction: 'ASC' },
  // The queue's deadline (migration 007): the operator deadline, or sooner a picklist wait's
  // expiry. Cases without a deadline come after every case with one.
  deadline: { expression: 'COALESCE(EXTRACT(EPOCH FROM j.deadline), 1e12)', direction: 'ASC' },
};

const cursorSchema = z.tuple([z.string().regex(/^-?\d+(\.\d+)?(e[+-]?\d+)?$/i), z.string().min(1)]);

export async function listCaseRecords(client: PoolClient, raw: CaseListQuery, now = new Date()): Promise<CasePage> {
  const query = caseListQuerySchema.parse(raw);
  const params: unknown[] = [];
  const param = (value: unknown) => `$${params.push(value)}`;
  const where = filters(query, param, now);
  const sort = sortKeys[query.sort];
  if (query.cursor) {
    const [key, caseId] = decodeCursor(query.cursor);
    where.push(
      `(${sort.expression}, j.case_id) ${sort.direction === 'ASC' ? '>' : '<'}` +
        ` (${param(key)}::numeric, ${param(caseId)})`,
    );
  }
  const { rows } = await client.query(
    `SELECT ${caseRecordColumns}, ${supersededColumn}, (${sort.expression})::text AS sort_key FROM case_journeys j
     ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
     ORDER BY ${sort.expression} ${sort.direction}, j.case_id ${sort.direction} LIMIT ${param(query.limit + 1)}`,
    params,
  );
  const page = rows.slice(0, query.limit) as Record<string, unknown>[];
  const last = page.at(-1);
  return {
    cases: page.map(withSupersededReasons),
    nextCursor: rows.length > query.limit && last ? encodeCursor(String(last.sort_key), String(last.case_id)) : null,
  };
}

function filters(query: z.output<typeof caseListQuerySchema>, param: (value: unknown) => string, now: Date): string[] {
  const where: string[] = [];
  if (query.state)
    where.push(
      query.state === 'needs_attention'
        ? `(j.state = ${param(query.state)} OR EXISTS (SELECT 1 FROM case_events e WHERE ${openSupersession}))`
        : `j.state = ${param(query.state)}`,
    );
  if (query.step || query.stepState) {
    const step = query.step
      ? `(s.key = ${param(query.step)} OR s.key LIKE ${param(`${likeEscaped(query.step)}/%`)})`
      : 'true';
    const state = query.stepState ? `s.value->>'state' = ${param(query.stepState)}` : 'true';
    where.push(`EXISTS (SELECT 1 FROM jsonb_each(j.steps) s WHERE ${step} AND ${state})`);
  }
  if (query.assignee !== undefined)
    where.push(query.assignee === '' ? 'j.assignee IS NULL' : `j.assignee = ${param(query.assignee)}`);
  if (query.waitingLongerThanMs !== undefined)
    where.push(`j.waiting_since <= ${param(new Date(now.getTime() - query.waitingLongerThanMs).toISOString())}`);
  if (query.reference)
    where.push(
      `EXISTS (SELECT 1 FROM case_starts c WHERE c.case_id = j.case_id AND c.reference = ${param(query.reference)})`,
    );
  if (query.startedBy)
    where.push(
      `EXISTS (SELECT 1 FROM case_starts c WHERE c.case_id = j.case_id AND c.started_by = ${param(query.startedBy)})`,
    );
  if (query.name) {
    const pattern = param(`%${likeEscaped(query.name)}%`);
    where.push(`(EXISTS (SELECT 1 FROM case_parties p WHERE p.case_id = j.case_id AND p.name ILIKE ${pattern})
      OR EXISTS (SELECT 1 FROM credit_reports r WHERE r.case_id = j.case_id AND r.company_name ILIKE ${pattern}))`);
  }
  return where;
}

/** `%`, `_` and `\` in a name are matched as themselves (backslash is LIKE's default escape). */
const likeEscaped = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

const encodeCursor = (key: string, caseId: string) => Buffer.from(JSON.stringify([key, caseId])).toString('base64url');

function decodeCursor(cursor: string): [string, string] {
  try {
    return cursorSchema.parse(JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')));
  } catch {
    throw new InvalidCursorError();
  }
}
