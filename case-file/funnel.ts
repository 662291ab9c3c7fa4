/**
 * Where applicants drop off: per step kind, over the cases started in a period (grouped by the day,
 * week or month they started), how many reached the step, completed it, had it waived, saw it
 * expire or need an operator, and how long it took, split into waiting on the applicant (a step
 * waiting with a link for them to open), on an operator (a step in an attention state) and on the
 * provider (the rest); and operators' time to first action (from a step needing attention to the
 * first audit entry on the case for that step or the whole case). Read from the case file alone
 * (the step transitions of migration 014 and the audit trail), never from Temporal; the database
 * computes the percentiles (percentile_cont).
 */
import type { PoolClient } from 'pg';
import { z } from 'zod';
import { inPlanOrder } from './stepOrder';

export const funnelGroupings = ['day', 'week', 'month'] as const;

/**
 * The step states in which a step waits on an operator (client/stepState.ts `attentionStates`:
 * the case file sits below client and cannot import it).
 */
const attentionStates = ['needs_attention', 'failed', 'expired', 'cancelled'];

export interface FunnelQuery {
  /** Cases started at or after this instant… */
  from: Date;
  /** …and before this one. */
  until: Date;
  groupBy: (typeof funnelGroupings)[number];
  /** Only the cases this key started (a key scoped to its own cases); undefined: every case. */
  startedBy?: string;
}

const seconds = z.number().nullable();
const percentilesSchema = z.object({
  count: z.number().int().meta({ description: 'How many figures the percentiles are of' }),
  medianSeconds: seconds,
  p90Seconds: seconds,
});

export const funnelStepSchema = z.object({
  step: z.string().meta({ description: 'The step kind (identity verification counts once per person)' }),
  reached: z.number().int().meta({ description: 'Steps that started (left pending)' }),
  completed: z.number().int().meta({ description: 'Reached steps whose latest state is completed' }),
  waived: z.number().int().meta({ description: 'Reached steps whose latest state is waived' }),
  expired: z.number().int().meta({ description: 'Reached steps that expired at least once' }),
  needsAttention: z.number().int().meta({ description: 'Reached steps that needed an operator at least once' }),
  unfinished: z.number().int().meta({ description: 'Reached steps neither completed nor waived: the drop-off' }),
  timeInStep: percentilesSchema.meta({
    description:
      'From reached to completed or waived, or to the case closing; steps of open cases still under way are left out',
  }),
  waitingOnApplicant: percentilesSchema,
  waitingOnProvider: percentilesSchema,
  waitingOnOperator: percentilesSchema,
  firstAction: percentilesSchema.meta({
    description: "Operators' time from a step needing attention to the first audit entry on it (or on its case)",
  }),
});
export type FunnelStep = z.infer<typeof funnelStepSchema>;

const funnelPeriodSchema = z.object({
  period: z.string().meta({ description: 'The first day of the period (UTC), YYYY-MM-DD' }),
  cases: z.number().int(),
  steps: z.array(funnelStepSchema),
});

export const funnelSchema = z.object({
  from: z.string().meta({ description: 'First day counted (YYYY-MM-DD, UTC)' }),
  to: z.string().meta({ description: 'Last day counted (YYYY-MM-DD, UTC)' }),
  groupBy: z.enum(funnelGroupings),
  periods: z.array(funnelPeriodSchema),
  total: z.object({ cases: z.number().int(), steps: z.array(funnelStepSchema) }),
});
export type Funnel = z.infer<typeof funnelSchema>;

/** The cases of the period, each step's transitions in order, and each step's latest state. */
const movesSql = `
WITH cases AS (
  SELECT j.case_id, j.closed_at, to_char(date_trunc($3, j.started_at AT TIME ZONE 'UTC'), 'YYYY-MM-DD') AS period
  FROM case_journeys j
  WHERE j.started_at >= $1 AND j.started_at < $2
    AND ($4::text IS NULL OR EXISTS (SELECT 1 FROM case_starts s WHERE s.case_id = j.case_id AND s.started_by = $4))
), moves AS (
  SELECT t.case_id, t.step, split_part(t.step, '/', 1) AS kind, c.period, c.closed_at, t.state, t.on_applicant, t.at,
         t.state = ANY($5::text[]) AS on_operator,
         lead(t.at) OVER w AS next_at, lag(t.state) OVER w AS previous_state,
         last_value(t.state) OVER (w ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING) AS last_state
  FROM case_step_transitions t JOIN cases c ON c.case_id = t.case_id
  WINDOW w AS (PARTITION BY t.case_id, t.step ORDER BY t.at, t.id)
)`;

/** Each reached step: its outcome, and when it ended (settled, or its case closed). */
const stepsSql = `${movesSql}, reached AS (
  SELECT case_id, step, kind, period, min(closed_at) AS closed_at, min(last_state) AS last_state,
         min(at) FILTER (WHERE state <> 'pending') AS reached_at,
         bool_or(state = 'expired') AS expired, bool_or(on_operator) AS attention
  FROM moves GROUP BY case_id, step, kind, period
  HAVING min(at) FILTER (WHERE state <> 'pending') IS NOT NULL
), ended AS (
  SELECT r.*, COALESCE((SELECT min(m.at) FROM moves m WHERE m.case_id = r.case_id AND m.step = r.step
                          AND m.at >= r.reached_at AND m.state IN ('completed', 'waived')), r.closed_at) AS end_at
  FROM reached r
), spans AS (
  SELECT e.kind, e.period, e.last_state, e.expired, e.attention,
         extract(epoch FROM e.end_at - e.reached_at) AS in_step,
         ${span('m.on_applicant')} AS applicant, ${span('m.on_operator')} AS operator,
         ${span('NOT m.on_applicant AND NOT m.on_operator')} AS provider
  FROM ended e LEFT JOIN moves m ON m.case_id = e.case_id AND m.step = e.step AND e.end_at IS NOT NULL
    AND m.at >= e.reached_at AND m.at < e.end_at
  GROUP BY e.case_id, e.step, e.kind, e.period, e.last_state, e.expired, e.attention, e.reached_at, e.end_at
)
SELECT GROUPING(period) = 1 AS total, period, kind, count(*)::int AS reached,
       count(*) FILTER (WHERE last_state = 'completed')::int AS completed,
       count(*) FILTER (WHERE last_state = 'waived')::int AS waived,
       count(*) FILTER (WHERE expired)::int AS expired, count(*) FILTER (WHERE attention)::int AS attention,
       ${percentiles('in_step')}, ${percentiles('applicant')}, ${percentiles('provider')}, ${percentiles('operator')}
FROM spans GROUP BY GROUPING SETS ((period, kind), (kind))`;

/** Every time a step came to need an operator, and how long until the first audit entry on it. */
const firstActionsSql = `${movesSql}, episodes AS (
  SELECT period, kind, extract(epoch FROM (SELECT min(a.at) FROM operator_audit a WHERE a.case_id = m.case_id
           AND a.at >= m.at AND (a.step IS NULL OR a.step = m.step)) - m.at) AS first_action
  FROM moves m WHERE m.on_operator AND (m.previous_state IS NULL OR NOT m.previous_state = ANY($5::text[]))
)
SELECT GROUPING(period) = 1 AS total, period, kind, ${percentiles('first_action')}
FROM episodes GROUP BY GROUPING SETS ((period, kind), (kind))`;

const casesSql = `${movesSql}
SELECT GROUPING(period) = 1 AS total, period, count(*)::int AS cases FROM cases GROUP BY GROUPING SETS ((period), ())`;

/** Seconds of the step's time (up to its end) spent in transitions that match `where`; null: not ended. */
function span(where: string): string {
  const sum = `sum(extract(epoch FROM LEAST(COALESCE(m.next_at, e.end_at), e.end_at) - m.at)) FILTER (WHERE ${where})`;
  return `CASE WHEN e.end_at IS NULL THEN NULL ELSE COALESCE(${sum}, 0) END`;
}

function percentiles(column: string): string {
  const at = (p: number) => `round(percentile_cont(${p}) WITHIN GROUP (ORDER BY ${column}))::int`;
  return `count(${column})::int AS ${column}_count, ${at(0.5)} AS ${column}_median, ${at(0.9)} AS ${column}_p90`;
}

type Row = Record<string, unknown>;

export async function readFunnel(client: PoolClient, query: FunnelQuery): Promise<Funnel> {
  const params = [query.from, query.until, query.groupBy, query.startedBy ?? null, attentionStates];
  const rowsOf = async (sql: string) => (await client.query(sql, params)).rows as Row[];
  const steps = await rowsOf(stepsSql);
  const actions = await rowsOf(firstActionsSql);
  const cases = await rowsOf(casesSql);
  const stepsOf = (period: string | null) => stepFigures(steps, actions, period);
  const periodRows = cases.filter((r) => !r.total).sort((a, b) => String(a.period).localeCompare(String(b.period)));
  return {
    from: day(query.from),
    to: day(new Date(query.until.getTime() - 1)),
    groupBy: query.groupBy,
    periods: periodRows.map((r) => ({
      period: r.period as string,
      cases: r.cases as number,
      steps: stepsOf(r.period as string),
    })),
    total: { cases: (cases.find((r) => r.total)?.cases as number | undefined) ?? 0, steps: stepsOf(null) },
  };
}

/** The figures of each step kind in a period (null: the whole range), in the journey's plan order. */
function stepFigures(steps: Row[], actions: Row[], period: string | null): FunnelStep[] {
  const mine = (r: Row) => (period === null ? r.total === true : r.total === false && r.period === period);
  const byKind = Object.fromEntries(steps.filter(mine).map((r) => [r.kind as string, r]));
  return Object.entries(inPlanOrder(byKind)).map(([kind, r]) => {
    const reached = r.reached as number;
    const settled = (r.completed as number) + (r.waived as number);
    const action = actions.find((a) => mine(a) && a.kind === kind) ?? {};
    return {
      step: kind,
      reached,
      completed: r.completed as number,
      waived: r.waived as number,
      expired: r.expired as number,
      needsAttention: r.attention as number,
      unfinished: reached - settled,
      timeInStep: figures(r, 'in_step'),
      waitingOnApplicant: figures(r, 'applicant'),
      waitingOnProvider: figures(r, 'provider'),
      waitingOnOperator: figures(r, 'operator'),
      firstAction: figures(action, 'first_action'),
    };
  });
}

function figures(row: Row, column: string): FunnelStep['timeInStep'] {
  return {
    count: (row[`${column}_count`] as number | undefined) ?? 0,
    medianSeconds: (row[`${column}_median`] as number | null | undefined) ?? null,
    p90Seconds: (row[`${column}_p90`] as number | null | undefined) ?? null,
  };
}

const day = (at: Date) => at.toISOString().slice(0, 10);
