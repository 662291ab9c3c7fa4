/**
 * `npm run bench:cost`: what one complete journey costs Temporal. Runs the demo journey of
 * `npm start` (credit report, IDV, open banking, a payslip, income-and-employer, affordability; the
 * applicant acting at once; simulator with no processing delay) BENCH_COST_JOURNEYS times (3),
 * one after another, then reads the history of every workflow run each journey touched and counts
 * events, workflow tasks, signals, activities, timers and Temporal Cloud billable actions, per step.
 * Resource workflows are measured over their whole life: the bench waits until they are quiet (they
 * stay open for their retention period, waiting for late deliveries).
 *
 * Baseline: the budget in BUDGET (justified in docs/benchmarks.md) and the 429 events measured
 * before this work; exits 1 when a journey costs more events than the budget.
 */
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Client } from '@temporalio/client';
import { runDemoJourney } from '../cli/demoJourney';
import { startStack } from '../cli/stack';
import { addCost, eventBreakdown, eventName, historyCost, zeroCost, type Cost } from './journeyCost/historyCost';
import { reportResult } from './benchResult';

const JOURNEYS = Number(process.env.BENCH_COST_JOURNEYS ?? 3);
/** History events of one demo journey measured on main before this work (issue 13). */
const BEFORE_EVENTS = 429;
/** At least 40% fewer than before. */
const BUDGET_EVENTS = Math.floor(BEFORE_EVENTS * 0.6);
/**
 * Resource workflows ask the provider after this long without a delivery (an hour by default); a
 * short one here so that a resource's whole working life fits in the run, polls included.
 */
const RECONCILE_AFTER = '3 seconds';
/** Quiet for longer than that: every workflow has done all it will do before its retention ends. */
const QUIET_MS = Number(process.env.BENCH_COST_QUIET_MS ?? 5_000);

interface Run {
  workflowId: string;
  runId: string;
}

/** Which part of the journey a workflow belongs to: the journey, a step, or a step's resource. */
function partOf(workflowId: string, caseId: string): string {
  const journey = `case/${caseId}`;
  if (workflowId === journey) return 'journey';
  // `identity-verification/<person id>`, and `/<n>` for later attempts: one row per step.
  if (workflowId.startsWith(`${journey}/`)) return workflowId.slice(journey.length + 1).replace(/^identity-verification\/.*/, 'identity-verification').replace(/\/\d+$/, '');
  const kind = workflowId.split('/')[1] ?? 'other';
  return `resource ${kind}`;
}

async function allRuns(client: Client): Promise<Run[]> {
  const runs: Run[] = [];
  for await (const execution of client.workflow.list()) runs.push({ workflowId: execution.workflowId, runId: execution.runId });
  return runs;
}

async function historyOf(client: Client, run: Run) {
  return (await client.workflow.getHandle(run.workflowId, run.runId).fetchHistory()).events ?? [];
}

/** Waits until no history of these runs grew for QUIET_MS (resource workflows finish forwarding). */
async function quiet(client: Client, runs: () => Promise<Run[]>): Promise<Run[]> {
  let last = '';
  for (;;) {
    const current = await runs();
    const lengths = await Promise.all(current.map(async (r) => `${r.runId}:${(await historyOf(client, r)).length}`));
    const signature = lengths.sort().join(',');
    if (signature === last) return current;
    last = signature;
    await new Promise((resolve) => setTimeout(resolve, QUIET_MS));
  }
}

async function main(): Promise<void> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-cost-'));
  const stack = await startStack({ processingDelayMs: 0, spoolDir: path.join(dir, 'spool'), embedded: { logFile: path.join(dir, 'temporal.log') }, caseFile: { embedded: {} } });
  try {
    const perPart = new Map<string, Cost>();
    const total = zeroCost();
    const breakdown = new Map<string, number>();
    let known = new Set<string>();
    let workflowRuns = 0;
    for (let i = 0; i < JOURNEYS; i++) {
      const outcome = await runDemoJourney(stack, () => {}, { deadlines: { reconcileAfter: RECONCILE_AFTER } });
      if (outcome.status.state !== 'completed') throw new Error(`journey ${outcome.caseId} ended ${outcome.status.state}: ${outcome.status.reasons.join('; ')}`);
      const runs = await quiet(stack.client, async () => (await allRuns(stack.client)).filter((r) => !known.has(r.runId)));
      known = new Set([...known, ...runs.map((r) => r.runId)]);
      workflowRuns += runs.length;
      for (const run of runs) {
        const events = await historyOf(stack.client, run);
        const cost = historyCost(events);
        const part = partOf(run.workflowId, outcome.caseId);
        if (process.env.BENCH_COST_DUMP && i === 0) console.log(`${run.workflowId}: ${events.map((e) => eventName(e.eventType)).join(' ')}`);
        perPart.set(part, addCost(perPart.get(part) ?? zeroCost(), cost));
        addCost(total, cost);
        const kind = part.startsWith('resource') ? 'resource' : part === 'journey' ? 'journey' : 'step';
        for (const [name, count] of eventBreakdown(events)) breakdown.set(`${kind} ${name}`, (breakdown.get(`${kind} ${name}`) ?? 0) + count);
      }
    }
    const per = (n: number) => Math.round((n / JOURNEYS) * 10) / 10;
    const rows = [...perPart.entries()].sort(([a], [b]) => a.localeCompare(b));
    console.log(`\none journey (mean of ${JOURNEYS}; ${per(workflowRuns)} workflow runs), per part:`);
    console.log(['part'.padEnd(34), 'events', 'tasks', 'sig out', 'sig in', 'activities', 'timers', 'children', 'actions'].join('\t'));
    for (const [part, cost] of [...rows, ['TOTAL', total] as const]) {
      console.log([part.padEnd(34), per(cost.events), per(cost.workflowTasks), per(cost.signalsSent), per(cost.signalsReceived), per(cost.activities), per(cost.timers), per(cost.children), per(cost.actions)].join('\t'));
    }
    console.log('\nevents by type (per journey):');
    for (const [name, count] of [...breakdown.entries()].sort((a, b) => b[1] - a[1])) console.log(`  ${name.padEnd(60)} ${per(count)}`);
    const events = per(total.events);
    reportResult({
      name: 'journey cost',
      figure: events,
      unit: 'history events per journey',
      baseline: BEFORE_EVENTS,
      baselineName: 'history events per journey measured before (issue 13)',
      ratio: events / BEFORE_EVENTS,
      target: `≤ ${BUDGET_EVENTS} (≥ 40% fewer)`,
      pass: events <= BUDGET_EVENTS,
    });
    process.exitCode = events <= BUDGET_EVENTS ? 0 : 1;
  } finally {
    await stack.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
