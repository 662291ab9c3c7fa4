/**
 * The case read model (docs/architecture.md, "The case read model and the audit trail"): the
 * journey's state as the journey wrote it, one row per case, read by the API, the console and the
 * CLI instead of querying workflows. Writes are idempotent and ordered: a write whose (run start,
 * version) is not newer than the stored one changes nothing. A run writes one at a time, each with
 * the steps that changed since the last it wrote (workflows/journeyReadModel.ts): a write of the
 * stored run merges its steps onto the row's. A write with only some steps is not taken for another
 * run's row, nor for no row (a reset run's first writes are such): the journey then writes them all.
 */
import type { PoolClient } from 'pg';
import { z } from 'zod';
import { inPlanOrder } from './stepOrder';

const isoTime = z.iso.datetime({ offset: true });

/** A step as the journey reports it; the read model keeps it whole and reads a few fields of it. */
const stepSchema = z.looseObject({
  state: z.string().min(1),
  providerIds: z.record(z.string(), z.string()).default({}),
  links: z.record(z.string(), z.string()).optional(),
  detail: z.unknown().optional(),
});

export const runStatuses = ['RUNNING', 'COMPLETED', 'CANCELLED'] as const;

/** What the journey writes when its status changes (activities/caseReadModelActivities.ts). */
export const journeyStateWriteSchema = z.object({
  caseId: z.string().min(1),
  workflowId: z.string().min(1),
  runId: z.string().min(1),
  /** With `version`, what orders the writes: a later run's writes win over an earlier run's. */
  runStartedAt: isoTime,
  /** Increases with every write of the run. */
  version: z.number().int().min(1),
  state: z.string().min(1),
  runStatus: z.enum(runStatuses),
  /** Every step of the run (`allSteps`), or the steps that changed since the run's last write. */
  steps: z.record(z.string(), stepSchema),
  /**
   * True for a run's first write and whenever the case file did not take the write before. A
   * write without it (from a journey that wrote its whole status every time) has every step.
   */
  allSteps: z.boolean().default(true),
  reasons: z.array(z.string()),
  operatorDeadline: isoTime.nullable(),
  /** When the journey's state last changed (workflow time). */
  stateSince: isoTime,
});
export type JourneyStateWrite = z.infer<typeof journeyStateWriteSchema>;

const sameRun = 'EXCLUDED.run_id = case_journeys.run_id';

/** A per-step column: the run's steps merged with the write's, or the write's in a new run. */
const mergedInRun = (column: string) =>
  `CASE WHEN ${sameRun} THEN case_journeys.${column} || EXCLUDED.${column} ELSE EXCLUDED.${column} END`;

/**
 * Answers whether the write changed the row. False: the stored state is as new or newer, or the
 * write has only some steps and the row is not its run's.
 */
export async function writeJourneyState(client: PoolClient, write: JourneyStateWrite): Promise<boolean> {
  const closed = write.runStatus !== 'RUNNING';
  const result = await client.query(
    `INSERT INTO case_journeys (case_id, workflow_id, run_id, run_started_at, version, state, run_status, outcome,
       steps, reasons,
       provider_ids, links, picklist, waiting_since, operator_deadline, started_at, closed_at)
     SELECT $1::text, $2::text, $3::text, $4::timestamptz, $5::integer, $6::text, $7::text, $8::text,
       $9::jsonb, $10::jsonb, $11::jsonb, $12::jsonb, $13::jsonb,
       $14::timestamptz, $15::timestamptz, $4::timestamptz, $16::timestamptz
     WHERE $17::boolean OR EXISTS (SELECT 1 FROM case_journeys WHERE case_id = $1)
     ON CONFLICT (case_id) DO UPDATE SET workflow_id = EXCLUDED.workflow_id, run_id = EXCLUDED.run_id,
       run_started_at = EXCLUDED.run_started_at,
       version = EXCLUDED.version, state = EXCLUDED.state, run_status = EXCLUDED.run_status, outcome = EXCLUDED.outcome,
       steps = ${mergedInRun('steps')},
       reasons = EXCLUDED.reasons, provider_ids = ${mergedInRun('provider_ids')}, links = ${mergedInRun('links')},
       picklist = CASE WHEN ${sameRun} AND NOT EXCLUDED.steps ? 'credit-report' THEN case_journeys.picklist
         ELSE EXCLUDED.picklist END,
       waiting_since = EXCLUDED.waiting_since, operator_deadline = EXCLUDED.operator_deadline,
       started_at = LEAST(case_journeys.started_at, EXCLUDED.started_at), closed_at = EXCLUDED.closed_at,
       updated_at = now(),
       revision = nextval('case_journeys_revision')
     WHERE (EXCLUDED.run_started_at, EXCLUDED.version) > (case_journeys.run_started_at, case_journeys.version)
       AND ($17::boolean OR ${sameRun})`,
    [
      write.caseId,
      write.workflowId,
      write.runId,
      write.runStartedAt,
      write.version,
      write.state,
      write.runStatus,
      closed ? write.state : null,
      JSON.stringify(write.steps),
      JSON.stringify(write.reasons),
      JSON.stringify(perStep(write, (s) => s.providerIds)),
      JSON.stringify(perStep(write, (s) => s.links ?? {})),
      json(picklistOf(write)),
      write.state === 'needs_attention' ? write.stateSince : null,
      write.operatorDeadline,
      closed ? write.stateSince : null,
      write.allSteps,
    ],
  );
  return result.rowCount === 1;
}

type Step = JourneyStateWrite['steps'][string];

function perStep<T>(write: JourneyStateWrite, pick: (step: Step) => T): Record<string, T> {
  return Object.fromEntries(Object.entries(write.steps).map(([key, step]) => [key, pick(step)]));
}

/** The credit report's picklist while it waits for an operator's choice. */
function picklistOf(write: JourneyStateWrite): unknown {
  const step = write.steps['credit-report'];
  const picklist = (step?.detail as { picklist?: unknown[] | null } | null | undefined)?.picklist;
  return step?.state === 'waiting' && picklist?.length ? picklist : null;
}

const json = (value: unknown) => (value === null || value === undefined ? null : JSON.stringify(value));

/** A case as the read model holds it, with the names the case file knows. */
export interface CaseRecord {
  caseId: string;
  workflowId: string;
  runId: string;
  version: number;
  state: string;
  runStatus: string;
  outcome: string | null;
  steps: Record<string, Step & Record<string, unknown>>;
  reasons: string[];
  picklist: unknown[] | null;
  operatorDeadline: string | null;
  /**
   * The queue's deadline: the earlier of `operatorDeadline` and when the wait of any step waiting
   * on a picklist expires (its `detail.expiresAt`); computed by the database (migration 007).
   */
  deadline: string | null;
  waitingSince: string | null;
  startedAt: string;
  closedAt: string | null;
  updatedAt: string;
  company: string | null;
  applicants: { personId: string; name: string | null }[];
  /** The lender's own reference for the case, from its start through the case API (migration 009); null: none. */
  reference: string | null;
  /** The operator who owns the case, and since when (caseAssignment.ts); null: nobody. */
  assignee: string | null;
  assignedAt: string | null;
  /** Changes at every write of the row (migration 004): what live views wait on. */
  revision: string;
}

/**
 * Names come from the case file's own records: the parties given at start, else the credit report's
 * company; the lender's reference from the case's start.
 */
export const caseRecordColumns = `j.*,
  COALESCE((SELECT p.name FROM case_parties p WHERE p.case_id = j.case_id AND p.role = 'company'
    AND p.name IS NOT NULL LIMIT 1),
           (SELECT r.company_name FROM credit_reports r WHERE r.case_id = j.case_id AND r.company_name IS NOT NULL
             ORDER BY r.recorded_at DESC LIMIT 1)) AS company,
  COALESCE((SELECT jsonb_agg(jsonb_build_object('personId', p.party_id, 'name', p.name) ORDER BY p.party_id)
    FROM case_parties p
            WHERE p.case_id = j.case_id AND p.role = 'applicant'), '[]'::jsonb) AS applicants,
  (SELECT s.reference FROM case_starts s WHERE s.case_id = j.case_id) AS reference`;

export async function readCaseRecord(client: PoolClient, caseId: string): Promise<CaseRecord | undefined> {
  const { rows } = await client.query(`SELECT ${caseRecordColumns} FROM case_journeys j WHERE j.case_id = $1`, [
    caseId,
  ]);
  return rows[0] ? caseRecordOf(rows[0] as Record<string, unknown>) : undefined;
}

export function caseRecordOf(row: Record<string, unknown>): CaseRecord {
  return {
    caseId: row.case_id as string,
    workflowId: row.workflow_id as string,
    runId: row.run_id as string,
    version: row.version as number,
    state: row.state as string,
    runStatus: row.run_status as string,
    outcome: (row.outcome as string | null) ?? null,
    steps: inPlanOrder(row.steps as CaseRecord['steps']),
    reasons: row.reasons as string[],
    picklist: (row.picklist as unknown[] | null) ?? null,
    operatorDeadline: iso(row.operator_deadline),
    deadline: iso(row.deadline),
    waitingSince: iso(row.waiting_since),
    startedAt: iso(row.started_at) as string,
    closedAt: iso(row.closed_at),
    updatedAt: iso(row.updated_at) as string,
    company: (row.company as string | null) ?? null,
    applicants: row.applicants as CaseRecord['applicants'],
    reference: (row.reference as string | null) ?? null,
    assignee: (row.assignee as string | null) ?? null,
    assignedAt: iso(row.assigned_at),
    revision: String(row.revision),
  };
}

const iso = (value: unknown): string | null =>
  value instanceof Date ? value.toISOString() : value == null ? null : String(value);
