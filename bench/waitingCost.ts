/**
 * `npm run bench:waiting`: what it costs in Temporal that the applicant takes their time. Runs the
 * demo journey of `npm start` (bench:cost's) with the applicant completing the identity check and
 * connecting their bank only after a wait equivalent to 0, 1 hour, 1 day and 3 days, on a clock
 * scaled down BENCH_WAITING_SCALE times (3,600: an hour is a second): every deadline and
 * `reconcileAfter` of the input shortened by that factor, and the wait too. Not the provider calls'
 * retry budget (`providerCalls`): it bounds retries, it is no wait, and shortened it would turn a
 * slow call on a busy machine into a failed step.
 *
 * Every journey of every wait runs at once (BENCH_WAITING_JOURNEYS of each, 2), so the run lasts
 * about the longest wait. Each journey's workflow runs are found by its CaseId search attribute and
 * measured once quiet, resources included (journeyCost/caseRuns.ts), with bench:cost's counting.
 *
 * Baseline, from the same run: the journey whose applicant acts at once. Target: 3 days of waiting
 * add at most 15% to it, in history events and in billable actions. Also reported, for comparison:
 * 3 days with polling every `reconcileAfter`, with no backoff (the cap set to reconcileAfter).
 * Polls are counted at the provider and their attempts that no history shows added to the actions
 * (journeyCost/providerPolls.ts: a poll is one activity whose retries are the schedule).
 */
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Duration } from '@temporalio/common';
import { msToNumber } from '@temporalio/common/lib/time';
import { runDemoJourney } from '../cli/demoJourney';
import { startStack, type Stack } from '../cli/stack';
import { defaultDeadlines, type Deadlines } from '../client/deadlines';
import { installRuntimeLogging } from '../worker/runtimeLogging';
import { reportResult, reportSize, type BenchResult } from './benchResult';
import { costOf, runsOfCase, untilQuiet } from './journeyCost/caseRuns';
import { dollarsFor, LIST_PRICE_PER_MILLION_ACTIONS_USD } from './journeyCost/billableActions';
import { zeroCost, type Cost } from './journeyCost/historyCost';

const SCALE = Number(process.env.BENCH_WAITING_SCALE ?? 3_600);
const JOURNEYS = Number(process.env.BENCH_WAITING_JOURNEYS ?? 2);
/** Quiet this long once a journey completed: its resources have done all they will. */
const QUIET_MS = Number(process.env.BENCH_WAITING_QUIET_MS ?? 5_000);
const HOUR_MS = 3_600_000;
/** At most this much more than the journey whose applicant acts at once. */
const MAX_ADDED = 0.15;

interface Variant {
  name: string;
  waitHours: number;
  /** Without backoff: every reconcileAfter. */
  fixedPolling?: boolean;
}

const VARIANTS: readonly Variant[] = [
  { name: 'no wait', waitHours: 0 },
  { name: '1 hour', waitHours: 1 },
  { name: '1 day', waitHours: 24 },
  { name: '3 days', waitHours: 72 },
  { name: '3 days, polling every hour', waitHours: 72, fixedPolling: true },
];

/** Every wait of the journey's clock shortened SCALE times (milliseconds), but the provider calls' budget. */
function scaledDeadlines(variant: Variant): Partial<Deadlines> {
  const scaled: Partial<Deadlines> = {};
  for (const [key, value] of Object.entries(defaultDeadlines) as [keyof Deadlines, Duration][]) {
    if (key !== 'providerCalls') scaled[key] = Math.max(1, Math.round(msToNumber(value) / SCALE));
  }
  if (variant.fixedPolling) scaled.reconcileBackoffCap = scaled.reconcileAfter;
  return scaled;
}

async function measureJourney(stack: Stack, variant: Variant): Promise<{ total: Cost; byPart: Map<string, Cost> }> {
  const outcome = await runDemoJourney(stack, () => {}, {
    deadlines: scaledDeadlines(variant),
    applicantActsAfterMs: (variant.waitHours * HOUR_MS) / SCALE,
  });
  if (outcome.status.state !== 'completed')
    throw new Error(
      `journey ${outcome.caseId} (${variant.name}) ended ${outcome.status.state}: ${outcome.status.reasons.join('; ')}`,
    );
  const runs = await untilQuiet(stack.client, () => runsOfCase(stack.client, outcome.caseId), QUIET_MS);
  return costOf(stack.client, runs, outcome.caseId, stack.simulator.store.requests);
}

/** Where the waiting goes: history events per part of the journey, for each wait (means). */
function printEventsByPart(measured: readonly { variant: Variant; journeys: { byPart: Map<string, Cost> }[] }[]): void {
  const parts = [...new Set(measured.flatMap((m) => m.journeys.flatMap((j) => [...j.byPart.keys()])))].sort();
  console.log(['events by part'.padEnd(34), ...measured.map((m) => m.variant.name.slice(0, 12))].join('\t'));
  for (const part of parts) {
    console.log(
      [
        part.padEnd(34),
        ...measured.map((m) =>
          mean(
            m.journeys.map((j) => j.byPart.get(part) ?? zeroCost()),
            (c) => c.events,
          ),
        ),
      ].join('\t'),
    );
  }
  console.log('');
}

const mean = (costs: readonly Cost[], pick: (c: Cost) => number) =>
  Math.round((costs.reduce((sum, c) => sum + pick(c), 0) / costs.length) * 10) / 10;

async function main(): Promise<void> {
  reportSize(`${JOURNEYS} journeys per wait, clock scaled ${SCALE}× (BENCH_WAITING_JOURNEYS, BENCH_WAITING_SCALE)`);
  // The worker's SDK logs at WARN (its state changes at INFO are not the bench's output).
  installRuntimeLogging();
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-waiting-'));
  const stack = await startStack({
    processingDelayMs: 0,
    spoolDir: path.join(dir, 'spool'),
    embedded: { logFile: path.join(dir, 'temporal.log') },
    caseFile: { embedded: {} },
  });
  try {
    console.log(
      `clock scaled ${SCALE}×: an hour of waiting is ${HOUR_MS / SCALE} ms; ${JOURNEYS} journeys per wait, all at once`,
    );
    const started = Date.now();
    const journeys = await Promise.all(
      VARIANTS.map(async (variant) => ({
        variant,
        journeys: await Promise.all(Array.from({ length: JOURNEYS }, () => measureJourney(stack, variant))),
      })),
    );
    console.log(`measured in ${Math.round((Date.now() - started) / 1000)} s\n`);
    printEventsByPart(journeys);
    const measured = journeys.map(({ variant, journeys: of }) => ({ variant, costs: of.map((j) => j.total) }));

    const baseline = measured[0]!;
    const baseEvents = mean(baseline.costs, (c) => c.events);
    const baseActions = mean(baseline.costs, (c) => c.actions);
    console.log(
      [
        'wait'.padEnd(38),
        'events',
        'ratio',
        'actions',
        'ratio',
        'polls',
        `USD ($${LIST_PRICE_PER_MILLION_ACTIONS_USD}/M actions)`,
      ].join('\t'),
    );
    const results: BenchResult[] = [];
    for (const { variant, costs } of measured) {
      const events = mean(costs, (c) => c.events);
      const actions = mean(costs, (c) => c.actions);
      console.log(
        [
          variant.name.padEnd(38),
          events,
          (events / baseEvents).toFixed(3),
          actions,
          (actions / baseActions).toFixed(3),
          mean(costs, (c) => c.polls),
          dollarsFor(actions).toFixed(6),
        ].join('\t'),
      );
      if (variant === baseline.variant) continue;
      // The 3 days with backoff is the target; the other waits, and polling without backoff, are reported.
      const judged = variant.waitHours === 72 && !variant.fixedPolling;
      for (const [what, figure, base] of [
        ['history events', events, baseEvents],
        ['billable actions', actions, baseActions],
      ] as const) {
        const ratio = figure / base;
        results.push(
          reportResult({
            name: `waiting ${variant.name}: ${what}`,
            figure,
            unit: `${what} per journey`,
            baseline: base,
            baselineName: 'the same journey, applicant acting at once',
            ratio,
            target: judged ? `ratio ≤ ${1 + MAX_ADDED}` : 'none',
            pass: judged ? ratio <= 1 + MAX_ADDED : null,
          }),
        );
      }
    }
    process.exitCode = results.some((r) => r.pass === false) ? 1 : 0;
  } finally {
    await stack.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
