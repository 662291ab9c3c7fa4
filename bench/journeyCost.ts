/**
 * `npm run bench:cost`: what one complete journey costs Temporal. Runs the demo journey of
 * `npm start` (credit report, IDV, open banking, a payslip, income-and-employer, affordability; the
 * applicant acting at once; simulator with no processing delay) BENCH_COST_JOURNEYS times (3),
 * one after another, then reads the history of every workflow run each journey touched and counts
 * events, workflow tasks, signals, activities, timers and Temporal Cloud billable actions, per step.
 * Resource workflows are measured over their whole life: the bench waits until they are quiet (they
 * stay open for their retention period, waiting for late deliveries).
 *
 * Billable actions by Temporal's published rules (journeyCost/billableActions.ts), and what they
 * cost at list price. Baseline: 429 history events, one demo journey measured without lean histories
 * (docs/architecture.md, "One delivery, end to end"). Events have no target, since they are not what a
 * lender pays for; the figures are reported.
 */
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runDemoJourney } from '../cli/demoJourney';
import { startStack } from '../cli/stack';
import { addCost, eventBreakdown, eventName, zeroCost, type Cost } from './journeyCost/historyCost';
import { allRuns, historyOf, partOf, runCost, untilQuiet } from './journeyCost/caseRuns';
import {
  actionLines,
  dollarsFor,
  LIST_PRICE_PER_MILLION_ACTIONS_USD,
  notInHistory,
} from './journeyCost/billableActions';
import { reportResult, reportSize } from './benchResult';

const JOURNEYS = Number(process.env.BENCH_COST_JOURNEYS ?? 3);
/** History events of one demo journey measured without lean histories. */
const BEFORE_EVENTS = 429;
/**
 * Resource workflows ask the provider after this long without a delivery (an hour by default); a
 * short one here so that a resource's whole working life fits in the run, polls included.
 */
const RECONCILE_AFTER = '3 seconds';
/** Quiet for longer than that: every workflow has done all it will do before its retention ends. */
const QUIET_MS = Number(process.env.BENCH_COST_QUIET_MS ?? 5_000);

async function main(): Promise<void> {
  reportSize(`${JOURNEYS} journeys (BENCH_COST_JOURNEYS)`);
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-cost-'));
  const stack = await startStack({
    processingDelayMs: 0,
    spoolDir: path.join(dir, 'spool'),
    embedded: { logFile: path.join(dir, 'temporal.log') },
    caseFile: { embedded: {} },
  });
  try {
    const perPart = new Map<string, Cost>();
    const total = zeroCost();
    const breakdown = new Map<string, number>();
    let known = new Set<string>();
    let workflowRuns = 0;
    for (let i = 0; i < JOURNEYS; i++) {
      const outcome = await runDemoJourney(stack, () => {}, { deadlines: { reconcileAfter: RECONCILE_AFTER } });
      if (outcome.status.state !== 'completed')
        throw new Error(
          `journey ${outcome.caseId} ended ${outcome.status.state}: ${outcome.status.reasons.join('; ')}`,
        );
      const runs = await untilQuiet(
        stack.client,
        async () => (await allRuns(stack.client)).filter((r) => !known.has(r.runId)),
        QUIET_MS,
      );
      known = new Set([...known, ...runs.map((r) => r.runId)]);
      workflowRuns += runs.length;
      for (const run of runs) {
        const events = await historyOf(stack.client, run);
        const cost = runCost(run, events, stack.simulator.store.requests);
        const part = partOf(run.workflowId, outcome.caseId);
        if (process.env.BENCH_COST_DUMP && i === 0)
          console.log(`${run.workflowId}: ${events.map((e) => eventName(e.eventType)).join(' ')}`);
        perPart.set(part, addCost(perPart.get(part) ?? zeroCost(), cost));
        addCost(total, cost);
        const kind = part.startsWith('resource') ? 'resource' : part === 'journey' ? 'journey' : 'step';
        for (const [name, count] of eventBreakdown(events))
          breakdown.set(`${kind} ${name}`, (breakdown.get(`${kind} ${name}`) ?? 0) + count);
      }
    }
    const per = (n: number) => Math.round((n / JOURNEYS) * 10) / 10;
    const rows = [...perPart.entries()].sort(([a], [b]) => a.localeCompare(b));
    console.log(`\none journey (mean of ${JOURNEYS}; ${per(workflowRuns)} workflow runs), per part:`);
    console.log(
      ['part'.padEnd(34), 'events', 'tasks', 'sig out', 'sig in', 'activities', 'timers', 'children', 'actions'].join(
        '\t',
      ),
    );
    for (const [part, cost] of [...rows, ['TOTAL', total] as const]) {
      console.log(
        [
          part.padEnd(34),
          per(cost.events),
          per(cost.workflowTasks),
          per(cost.signalsSent),
          per(cost.signalsReceived),
          per(cost.activities),
          per(cost.timers),
          per(cost.children),
          per(cost.actions),
        ].join('\t'),
      );
    }
    console.log('\nevents by type (per journey):');
    for (const [name, count] of [...breakdown.entries()].sort((a, b) => b[1] - a[1]))
      console.log(`  ${name.padEnd(60)} ${per(count)}`);
    const events = per(total.events);
    const actions = per(total.actions);
    const historyKb = Math.round(total.historyBytes / JOURNEYS / 100) / 10;
    console.log(`\nhistory size (protobuf, payloads encrypted, as Temporal stores it): ${historyKb} KB a journey`);
    console.log(
      `\nbillable actions by kind (per journey; not in a history, so not counted: ${notInHistory}; heartbeats estimated):`,
    );
    for (const line of actionLines(total.actionsByKind, JOURNEYS)) console.log(line);
    console.log(
      `\none journey: ${actions} actions, $${dollarsFor(actions).toFixed(5)} at $${LIST_PRICE_PER_MILLION_ACTIONS_USD} per million actions (Temporal Cloud list price)`,
    );
    reportResult({
      name: 'journey cost: history events',
      figure: events,
      unit: 'history events per journey',
      baseline: BEFORE_EVENTS,
      baselineName: 'history events per journey without lean histories',
      ratio: events / BEFORE_EVENTS,
      target: 'none',
      pass: null,
    });
    reportResult({
      name: 'journey cost: history size',
      figure: historyKb,
      unit: 'KB of history per journey (payloads encrypted)',
      baseline: null,
      baselineName: 'none',
      ratio: null,
      target: 'none',
      pass: null,
    });
    reportResult({
      name: 'journey cost: billable actions',
      figure: actions,
      unit: 'Temporal Cloud actions per journey',
      baseline: null,
      baselineName: 'none',
      ratio: null,
      target: 'none',
      pass: null,
    });
    // Per 1,000 journeys: a cent-sized figure per journey would print as 0.00 in the summary.
    reportResult({
      name: 'journey cost: at list price',
      figure: Math.round(dollarsFor(actions) * 1000 * 100) / 100,
      unit: `USD per 1,000 journeys ($${LIST_PRICE_PER_MILLION_ACTIONS_USD}/M actions)`,
      baseline: null,
      baselineName: 'none',
      ratio: null,
      target: 'none',
      pass: null,
    });
  } finally {
    await stack.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
