/**
 * `npm run bench:idle`: what journeys waiting for their applicants cost one worker, and how a fresh
 * worker resumes them. Not part of `npm test`.
 *
 * Temporal (embedded dev server, in memory), the simulator (no processing delay), the case file and
 * the bridge run in this process through startStack; the worker is a child process, so its RSS is
 * its own. Its settings come from the environment as in production (WORKER_MAX_CACHED_WORKFLOWS,
 * WORKER_REUSE_V8_CONTEXT, ...); BENCH_IDLE_WORKER_NODE_OPTIONS is its NODE_OPTIONS (default
 * `--max-old-space-size=512`, as compose.yaml).
 *
 * 1. Warm-up: BENCH_IDLE_WARMUP journeys (20) run to completion, the applicant acting once asked;
 *    their act-to-completion times with a warm worker are the resume baseline. The worker's RSS
 *    once quiet afterwards is the memory baseline.
 * 2. BENCH_IDLE_JOURNEYS journeys (100; 1000 or 5000 for the larger runs; IDV, open banking,
 *    affordability, income-and-employer, deadlines of 2 hours so they stay waiting) are started
 *    with at most BENCH_IDLE_BACKLOG (40) not yet waiting; a journey waits once the simulator holds
 *    its IDV request and bank connection.
 *    Once the worker is quiet: its RSS (the figure), and the workflows left open, by kind.
 * 3. The worker is stopped (SIGTERM) and a fresh one started (empty sticky cache). The applicants of
 *    BENCH_IDLE_RESUME journeys (50, spread evenly over the start order; as many as were started
 *    for all of them) act (IDV approved, bank connected) with at most BENCH_IDLE_RESUME_CONCURRENCY
 *    (16) at once; resume time is from the first call of the act at the simulator to the journey's
 *    completion. A sample: resuming is replaying a journey the fresh worker has not seen, the same
 *    work for the first journey as for the thousandth.
 *
 * Target: the worker holding every idle journey stays under 1 GiB RSS, and every journey of the
 * sample resumes.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Client } from '@temporalio/client';
import { bundleWorkflowCode } from '@temporalio/worker';
import { startStack } from '../cli/stack';
import { workerEnvOf } from '../cli/stackProcessEnv';
import { workflowBundleOptions } from '../worker/workflowBundle';
import { killChildren, startChild, type Child } from '../test/support/faultHarness/childProcess';
import {
  act,
  newApplicant,
  startJourney,
  type Applicant,
  type Control,
  type JourneyPlan,
} from '../test/support/faultHarness/faultJourneys';
import { simulatorControl } from '../test/support/faultHarness/rawProviderApi';
import type { SimulatorStore } from '../simulator/store';
import { installRuntimeLogging } from '../worker/runtimeLogging';
import { reportResult, reportSize } from './benchResult';
import { askedApplicants, type AskedIds } from './idleJourneys/askedApplicants';
import { forEachBounded } from './idleJourneys/boundedPool';
import { formatSummary, summarize } from './idleJourneys/latencySummary';
import { openWorkflows, totalOf, type OpenWorkflows } from './idleJourneys/openWorkflows';
import { peakRssDuring, rssMiB, steadyRssMiB, waitQuiet } from './idleJourneys/workerQuiet';
import { exitWhenDone } from './exitWhenDone';

/**
 * 100 by default: 600 open workflows, more than twice the worker's sticky cache of 250, which is
 * what the worker's memory follows (docs/benchmarks.md: 437 MiB at 200 journeys, 444 at 300, 455 at
 * 1,000), in a tenth of the time 1,000 take. BENCH_IDLE_JOURNEYS=1000 or 5000 for larger runs.
 */
const JOURNEYS = Number(process.env.BENCH_IDLE_JOURNEYS ?? 100);
const WARMUP = Number(process.env.BENCH_IDLE_WARMUP ?? 20);
const BACKLOG = Number(process.env.BENCH_IDLE_BACKLOG ?? 40);
const RESUME_CONCURRENCY = Number(process.env.BENCH_IDLE_RESUME_CONCURRENCY ?? 16);
/** How many idle journeys a fresh worker resumes (their applicants act); the rest are left waiting. */
const RESUME_SAMPLE = Number(process.env.BENCH_IDLE_RESUME ?? 50);
/**
 * Stop starting journeys after this long (a loaded machine); the run goes on with those started,
 * and fails the target.
 */
const START_MAX_MS = Number(process.env.BENCH_IDLE_START_MAX_MINUTES ?? Number.POSITIVE_INFINITY) * 60_000;
/** The heap the compose worker runs with (compose.yaml, docs/deployment.md). */
const WORKER_NODE_OPTIONS = process.env.BENCH_IDLE_WORKER_NODE_OPTIONS ?? '--max-old-space-size=512';
const TARGET_MIB = 1024;
/** Reference: without lean histories and a lean workflow bundle, 300 idle journeys grew one process by 2,307 MB. */
const REFERENCE_MIB_PER_JOURNEY = 7.9;
/** Long enough that nothing expires and no resource polls the provider during the bench. */
const PLAN: JourneyPlan = { banking: true, deadline: '2 hours', reconcileAfter: '2 hours' };
const RESUME_TIMEOUT_MS = 15 * 60_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const elapsed = (since: number) => `${Math.round((Date.now() - since) / 1000)} s`;

/** New applicants at the simulator, 50 at a time. */
async function applicantsFor(control: Control, n: number): Promise<Applicant[]> {
  const applicants: Applicant[] = [];
  for (let i = 0; i < n; i += 50)
    applicants.push(...(await Promise.all(Array.from({ length: Math.min(50, n - i) }, () => newApplicant(control)))));
  return applicants;
}

/**
 * Starts a journey for every applicant, keeping at most BACKLOG started but not yet waiting, and
 * returns once all wait; prints progress every few hundred. After START_MAX_MS no more are
 * started: the applicants whose journeys were are returned.
 */
async function startWaiting(
  client: Client,
  taskQueue: string,
  store: SimulatorStore,
  all: Applicant[],
  label: string,
  workerPid: number,
): Promise<{ applicants: Applicant[]; asked: Map<string, AskedIds> }> {
  const since = Date.now();
  let applicants = all;
  let started = 0;
  let asked = new Map<string, AskedIds>();
  let reported = 0;
  while (asked.size < applicants.length) {
    asked = askedApplicants(store, applicants.slice(0, started), PLAN.banking);
    if (Date.now() - since > START_MAX_MS && applicants.length > started) {
      applicants = applicants.slice(0, started);
      console.log(
        `${label}: ${START_MAX_MS / 60_000} minutes are up; no more journeys started (${started} of ${all.length})`,
      );
    }
    const room = Math.min(BACKLOG - (started - asked.size), applicants.length - started);
    if (room > 0) {
      await Promise.all(applicants.slice(started, started + room).map((a) => startJourney(client, taskQueue, a, PLAN)));
      started += room;
    } else {
      await sleep(500);
    }
    if (asked.size - reported >= 250 || (asked.size === applicants.length && reported !== asked.size)) {
      reported = asked.size;
      console.log(
        `${label}: ${asked.size} of ${applicants.length} journeys waiting (${started} started) after ${elapsed(since)}; worker RSS ${rssMiB(workerPid)} MiB`,
      );
    }
  }
  return { applicants, asked };
}

/** `n` of `all`, evenly spread over their order (journeys started early and late alike). */
function spreadSample<T>(all: readonly T[], n: number): T[] {
  if (n >= all.length) return [...all];
  return Array.from({ length: n }, (_, i) => all[Math.floor((i * all.length) / n)]!);
}

/** Every applicant acts, RESUME_CONCURRENCY at once; answers each journey's act-to-completion time. */
async function resume(
  client: Client,
  control: Control,
  applicants: Applicant[],
  asked: Map<string, AskedIds>,
  label: string,
): Promise<{ durations: number[]; failures: number; seconds: number }> {
  const since = Date.now();
  let done = 0;
  const outcomes = await forEachBounded(applicants, RESUME_CONCURRENCY, async (a) => {
    const ids = asked.get(a.caseId);
    if (!ids) throw new Error('the journey never asked its applicant');
    const actedAt = Date.now();
    await act(control, ids);
    const timeout = sleep(RESUME_TIMEOUT_MS).then(() => Promise.reject(new Error('not completed in time')));
    const status = (await Promise.race([client.workflow.getHandle(`case/${a.caseId}`).result(), timeout])) as {
      state: string;
    };
    if (status.state !== 'completed') throw new Error(`the journey ended ${status.state}`);
    const duration = Date.now() - actedAt;
    if (++done % 250 === 0)
      console.log(`${label}: ${done} of ${applicants.length} journeys resumed after ${elapsed(since)}`);
    return duration;
  });
  const durations = outcomes.flatMap((o) => (o.status === 'fulfilled' ? [o.value] : []));
  const failures = outcomes.filter((o) => o.status === 'rejected') as PromiseRejectedResult[];
  // Reasons only, with every id masked (a simulator path names the request), each once.
  const reasons = new Set(
    failures.map((f) => String((f.reason as Error).message ?? f.reason).replace(/[0-9a-f]{8}-[0-9a-f-]{27}/gi, '<id>')),
  );
  for (const reason of reasons) console.log(`${label}: ${failures.length} not resumed; ${reason}`);
  return { durations, failures: failures.length, seconds: (Date.now() - since) / 1000 };
}

function printOpen(title: string, groups: OpenWorkflows, journeys: number): void {
  console.log(`${title}: ${totalOf(groups)} workflows, ${(totalOf(groups) / journeys).toFixed(2)} per journey`);
  for (const [group, n] of [...groups.entries()].sort((a, b) => b[1] - a[1]))
    console.log(`  ${group.padEnd(40)} ${String(n).padStart(7)}  ${(n / journeys).toFixed(2)} per journey`);
}

async function main(): Promise<void> {
  reportSize(
    `${JOURNEYS} idle journeys, ${Math.min(RESUME_SAMPLE, JOURNEYS)} of them resumed, ${RESUME_CONCURRENCY} at once (BENCH_IDLE_JOURNEYS=1000 or 5000 for the larger runs, BENCH_IDLE_RESUME, BENCH_IDLE_RESUME_CONCURRENCY)`,
  );
  // The stack's own worker (stopped at once) logs at WARN: its state changes are not the bench's output.
  installRuntimeLogging();
  const started = Date.now();
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-idle-'));
  const bundlePath = path.join(dir, 'workflow-bundle.js');
  writeFileSync(bundlePath, (await bundleWorkflowCode(workflowBundleOptions())).code);
  const stack = await startStack({
    embedded: { logFile: path.join(dir, 'temporal.log') },
    workflowBundle: { codePath: bundlePath },
    spoolDir: path.join(dir, 'spool'),
    processingDelayMs: 0,
    caseFile: { embedded: {} },
  });
  // The measured worker is a child process; the stack's own would take its work.
  await stack.worker.stop();
  const workerEnv: Record<string, string> = { ...workerEnvOf(stack, bundlePath), NODE_OPTIONS: WORKER_NODE_OPTIONS };
  const settings = [
    'WORKER_MAX_CACHED_WORKFLOWS',
    'WORKER_REUSE_V8_CONTEXT',
    'WORKER_MAX_CONCURRENT_WORKFLOW_TASKS',
  ].map((name) => `${name}=${process.env[name] ?? '(default)'}`);
  console.log(
    `bench idle: ${JOURNEYS} journeys; worker ${settings.join(' ')} NODE_OPTIONS=${WORKER_NODE_OPTIONS || '(none)'}; ${os.cpus().length} cores, ${Math.round(os.totalmem() / 2 ** 30)} GiB, load ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );
  const control = simulatorControl(stack.simulator);
  const { client } = stack;
  const taskQueue = stack.temporal.taskQueue;
  let worker: Child | undefined;
  try {
    worker = await startChild('worker/main.ts', workerEnv, 'worker running');
    const first = worker.child.pid!;
    console.log(`worker#1 running, RSS ${rssMiB(first)} MiB`);

    // 1. Warm-up and baselines.
    const warmApplicants = await applicantsFor(control, WARMUP);
    const { asked: warmAsked } = await startWaiting(
      client,
      taskQueue,
      stack.simulator.store,
      warmApplicants,
      'warm-up',
      first,
    );
    await waitQuiet(client, first);
    const warm = await resume(client, control, warmApplicants, warmAsked, 'warm-up');
    const warmSummary = summarize(warm.durations);
    await waitQuiet(client, first);
    const baselineMiB = await steadyRssMiB(first);
    const beforeOpen = await openWorkflows(client);
    console.log(
      `warm-up: resume with a warm worker ${formatSummary(warmSummary)}; worker#1 RSS once quiet ${baselineMiB} MiB (${totalOf(beforeOpen)} warm-up workflows still open)`,
    );

    // 2. Journeys waiting for their applicants. (Counted by start time, not by subtracting the
    // warm-up's count: warm-up resources that closed meanwhile would be subtracted from them.)
    const measuredFrom = new Date();
    const requested = await applicantsFor(control, JOURNEYS);
    const startPhase = peakRssDuring(
      first,
      startWaiting(client, taskQueue, stack.simulator.store, requested, 'start', first),
    );
    const {
      result: { applicants, asked },
      peakMiB: startPeakMiB,
    } = await startPhase;
    const held = applicants.length;
    const startSeconds = (Date.now() - started) / 1000;
    await waitQuiet(client, first);
    const heldMiB = await steadyRssMiB(first);
    const opened = await openWorkflows(client, measuredFrom);
    const perJourneyMiB = (heldMiB - baselineMiB) / held;
    console.log(
      `idle: ${held} journeys waiting (${JOURNEYS} asked for); worker#1 RSS ${heldMiB} MiB once quiet (peak ${startPeakMiB} MiB while starting), ${perJourneyMiB.toFixed(3)} MiB per journey above the baseline (without lean histories: ${REFERENCE_MIB_PER_JOURNEY} MB)`,
    );
    printOpen('open workflows of the idle journeys', opened, held);

    // 3. A fresh worker resumes them.
    await worker.stop();
    worker = await startChild('worker/main.ts', workerEnv, 'worker running');
    const second = worker.child.pid!;
    const freshMiB = await steadyRssMiB(second, 5);
    const resumed = spreadSample(applicants, RESUME_SAMPLE);
    console.log(
      `worker#2 (fresh, empty cache) running, RSS ${freshMiB} MiB; the applicants of ${resumed.length} of the ${held} journeys act, ${RESUME_CONCURRENCY} at once`,
    );
    const { result: cold, peakMiB: resumePeakMiB } = await peakRssDuring(
      second,
      resume(client, control, resumed, asked, 'resume'),
    );
    const coldSummary = summarize(cold.durations);
    const afterMiB = rssMiB(second);
    console.log(
      `resume: ${formatSummary(coldSummary)}; ${cold.failures} not resumed; all in ${cold.seconds.toFixed(0)} s (${(cold.durations.length / cold.seconds).toFixed(1)} journeys/s); worker#2 RSS peak ${resumePeakMiB} MiB, ${afterMiB} MiB at the end`,
    );
    console.log(
      `bench idle: ${Math.round((Date.now() - started) / 1000)} s in all (start phase ended at ${Math.round(startSeconds)} s)`,
    );

    const memoryPass = heldMiB < TARGET_MIB && held === JOURNEYS;
    const resumePass = cold.failures === 0 && cold.durations.length === resumed.length && held === JOURNEYS;
    reportResult({
      name: 'idle journeys: worker RSS',
      figure: heldMiB,
      unit: `MiB RSS holding ${held} idle journeys (worker after warm-up ${baselineMiB} MiB, ${perJourneyMiB.toFixed(3)} MiB per journey)`,
      baseline: TARGET_MIB,
      baselineName: 'the 1 GiB target',
      ratio: heldMiB / TARGET_MIB,
      target: '< 1024 MiB',
      pass: memoryPass,
    });
    reportResult({
      name: 'idle journeys: resume',
      figure: coldSummary.p99,
      unit: `ms p99 from the applicant's act to the journey completed, fresh worker (${cold.durations.length} of the ${resumed.length} sampled of ${held} resumed)`,
      baseline: warmSummary.p99,
      baselineName: 'p99 with a warm worker',
      ratio: coldSummary.p99 / warmSummary.p99,
      target: `every sampled journey resumes (${resumed.length} of ${JOURNEYS})`,
      pass: resumePass,
    });
    process.exitCode = memoryPass && resumePass ? 0 : 1;
  } catch (error) {
    console.error('bench idle failed:', error);
    process.exitCode = 1;
  } finally {
    await worker?.stop().catch(() => undefined);
    killChildren();
    await stack.stop();
  }
}

exitWhenDone(main);
