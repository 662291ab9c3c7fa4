/**
 * `npm run bench:bridge`: signed deliveries through the webhook bridge against baselines measured
 * in the same run, on the same embedded Temporal dev server, by the same load generator (one
 * keep-alive HTTP agent, the same concurrency):
 *
 * - throughput: the bridge as deployed (`webhook-bridge/main.ts` in its own process: verify, parse,
 *   route, signalWithStart under a deadline, 202) against direct `signalWithStart` calls with the
 *   same routing from this process (Temporal's own cost): the median of the rounds' bridge
 *   throughputs against the median of theirs (BENCH_ROUNDS, 3 alternating rounds). Reported, no
 *   target: both share two cores with the dev server, so the ratio measures the machine as much as
 *   the bridge; the bridge's own cost is the CPU per delivery below.
 * - verify-and-validate: the bridge's HTTP surface with a signaller that answers at once (no
 *   Temporal) against a bare express route that only reads the raw body, both in this process.
 *   Reported, no target: the bridge's own 110 µs is small beside Temporal's 6–12 ms.
 *   The same surface logging at `warn` (BRIDGE_LOG_LEVEL=warn: no line per accepted delivery) is
 *   reported too, so that the line's cost is measured in every run.
 * - CPU per delivery: the bridge process's own CPU (from /proc) per delivery it accepted, against
 *   the same for a baseline process started the same way (bridgeBaseline/minimalBridgeMain.ts: a
 *   minimal express route that reads the JSON body and does the bridge's `signalWithStart` with
 *   the same routing and data converter, no HMAC, spool or logging), each under the same open
 *   loop at the same time (BENCH_CPU_RATE a second each, BENCH_CPU_DELIVERIES a round,
 *   BENCH_CPU_ROUNDS rounds). Target: the median round's bridge CPU ≤ 1.5× the baseline's.
 * - visibility latency: POST until the resource workflow has processed the delivery (its first
 *   workflow task completed after the signal, read from its history afterwards), with a worker
 *   running the resource workflows, deliveries arriving at 50 a second (an open loop:
 *   BENCH_VISIBILITY_RATE) as a provider sends them, through the bridge process and through the
 *   minimal process above, each taking half its sample in turn. Target: the bridge's p99 ≤ 1.5× the
 *   minimal process's. Its p99 in milliseconds is reported beside it: at 50 a second the dev
 *   server, the worker and the receiving process fill two shared cores, so the milliseconds follow
 *   the machine as much as the receiver.
 *
 * Variants run in alternating rounds so that load from elsewhere on the machine falls on all of
 * them alike. The variants without Temporal have a phase of their own, first, while the dev
 * server is idle: rotated in with the others, whichever of them followed a Temporal round absorbed
 * the dev server's tail (the bare route measured 2,400 to 3,900/s in one run by its place in the
 * order), which swung their ratio between 0.64 and 0.81 from run to run of the same code.
 * Bridges log at `info` (their default level): the child to a file, the in-process ones to
 * /dev/null.
 */
import { createHmac, randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { Client, Connection } from '@temporalio/client';
import { DefaultLogger, NativeConnection, Runtime, Worker, bundleWorkflowCode } from '@temporalio/worker';
import express from 'express';
import pino from 'pino';
import { deliverToResource, subscribeToResourceWorkflow } from '../activities/signalResource';
import { deliverSignal, subscribeSignal } from '../client/resourceMessages';
import { dataConverterFor } from '../codec/dataConverter';
import { readPayloadKeys } from '../codec/payloadKeys';
import { startDevServer } from '../cli/devServer';
import { resolveTemporalCli } from '../cli/temporalCli';
import { resourceWorkflowId } from '../provider';
import { routeIncoming } from '../webhook-bridge/deliveryRecorder';
import { SIGNATURE_HEADER } from '../webhook-bridge/verifySignature';
import { workflowBundleOptions } from '../worker/workflowBundle';
import { exitCodeOf, ratioAtMost, ratioReported, reportResult, reportSize, type BenchResult } from './benchResult';
import { cpuRounds, medianMsPerDelivery, type CpuRound } from './bridgeBaseline/cpuRounds';
import { startMinimalBridgeProcess } from './bridgeBaseline/minimalBridgeProcess';
import { startBridgeProcess, type BridgeProcess } from './bridgeProcess';
import { listen, startBridgeWithoutTemporal } from './bridgeWithoutTemporal';
import { closedLoop, combined, percentile, type LoadFigures } from './closedLoop';
import { cpuMeter, type CpuSpent } from './cpuMeter';
import { keepAlivePostClient, type PostClient } from './keepAlivePost';
import { exitWhenDone } from './exitWhenDone';
import { pacedLoad } from './pacedLoad';
import { eventTimeMs } from './journeyCost/billableActions';
import { windowLine } from './journeyThroughput/cpuByPart';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
/** The variants without Temporal take about a second a round: more rounds for the same confidence. */
const HTTP_ROUNDS = Number(process.env.BENCH_HTTP_ROUNDS ?? 3);
const PER_ROUND = Number(process.env.BENCH_DELIVERIES ?? 300);
/** The variants without Temporal answer in about a millisecond: more deliveries per round. */
const PER_ROUND_HTTP = Number(process.env.BENCH_HTTP_DELIVERIES ?? 1500);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 8);
/** The bridge process warms its own JIT: enough deliveries that its hot paths are optimised before measuring. */
const WARM_UP = Number(process.env.BENCH_WARM_UP ?? 300);
const VISIBILITY_SAMPLE = Number(process.env.BENCH_VISIBILITY_DELIVERIES ?? 200);
/** Deliveries a second while visibility is measured: the 50. */
const VISIBILITY_RATE = Number(process.env.BENCH_VISIBILITY_RATE ?? 50);
/** Deliveries through each receiver, on the measured path, before visibility is measured. */
const WARM_UP_VISIBILITY = 30;
/** The bridge's POST → processed p99 against the minimal process's, the same load into each. */
const VISIBILITY_P99_RATIO_MAX = 1.5;
/** The bridge process's CPU per delivery against the minimal baseline process's: an open loop at this rate. */
const CPU_RATE = Number(process.env.BENCH_CPU_RATE ?? 50);
const CPU_PER_ROUND = Number(process.env.BENCH_CPU_DELIVERIES ?? 400);
const CPU_ROUNDS = Number(process.env.BENCH_CPU_ROUNDS ?? 3);
const CPU_RATIO_MAX = 1.5;
/** How often the bridge process takes a delivery while the baseline catches up on its warm-up. */
const TRICKLE_EVERY_MS = 50;
const PROFILING = (process.env.BENCH_BRIDGE_NODE_ARGS ?? '').includes('--cpu-prof');
const SETTLE_MS = 1_000;
const SECRET = 'bench-secret';
const TASK_QUEUE = 'bench-bridge';
const VISIBLE_TASK_QUEUE = 'bench-bridge-visible';

interface Delivery {
  raw: string;
  signature: string;
  batchId: string;
  requestId: string;
  webhookId: string;
}

function delivery(): Delivery {
  const requestId = randomUUID();
  const webhookId = randomUUID();
  const raw = JSON.stringify({
    webhook_id: webhookId,
    webhook_name: 'bench',
    datetime_sent: new Date().toISOString(),
    external_ref: null,
    event_type: 'IdentityVerification.Completed',
    data: {
      identity_request: {
        request_id: requestId,
        identity_request_endpoint: '/v2/persons/p/identity-verifications',
        identity_result_endpoint: `/v2/identity/${requestId}`,
      },
      person: { first_name: 'A', last_name: 'B', name: 'A B', person_id: 'p' },
      status: 'Completed',
      date_completed: new Date().toISOString(),
      verification_status: 'Approved',
    },
  });
  return {
    raw,
    signature: createHmac('sha256', SECRET).update(raw).digest('base64'),
    batchId: randomUUID(),
    requestId,
    webhookId,
  };
}

const deliveries = (n: number) => Array.from({ length: n }, delivery);
const loadAverage = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
const mean = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

type Send = (d: Delivery) => Promise<void>;

interface Variant {
  name: string;
  send: Send;
  perRound: number;
}

const post =
  (http: PostClient, url: string): Send =>
  async (d) => {
    const status = await http.post(url, d.raw, {
      'content-type': 'application/json',
      [SIGNATURE_HEADER]: d.signature,
      'x-batch-correlation-id': d.batchId,
    });
    if (status !== 202) throw new Error(`${url} answered ${status}`);
  };

/** CPU per delivery of this process, the dev server and the bridge process (`cpuMeter`'s pids in that order). */
function cpuColumns(cpu: CpuSpent, deliveries: number): string {
  const perDelivery = (ms: number) => ((ms / deliveries) * 1000).toFixed(0).padStart(5);
  const [devServer = 0, bridgeProcess = 0] = cpu.othersMs;
  return `CPU µs/delivery: here ${perDelivery(cpu.selfMs)}, dev server ${perDelivery(devServer)}, bridge process ${perDelivery(bridgeProcess)}`;
}

function line(name: string, f: LoadFigures, cpu: CpuSpent): string {
  return (
    `${name.padEnd(46)} ${f.perSecond.toFixed(0).padStart(6)}/s  p50 ${f.p50.toFixed(1).padStart(6)} ms  p99 ${f.p99.toFixed(1).padStart(6)} ms  ` +
    `${cpuColumns(cpu, f.count)}  (${f.count} in ${f.seconds.toFixed(1)} s)`
  );
}

const addCpu = (a: CpuSpent, b: CpuSpent): CpuSpent => ({
  selfMs: a.selfMs + b.selfMs,
  othersMs: b.othersMs.map((ms, i) => ms + (a.othersMs[i] ?? 0)),
});

/** Warm-up, then `count` rounds of every variant, each round in a different order. */
async function rounds(
  variants: readonly Variant[],
  pids: readonly number[],
  count: number,
): Promise<Map<string, { figures: LoadFigures; cpu: CpuSpent; rounds: LoadFigures[] }>> {
  for (const v of variants)
    await closedLoop(deliveries(v.perRound === PER_ROUND ? WARM_UP : WARM_UP * 3), CONCURRENCY, v.send);
  const runs = new Map<string, LoadFigures[]>(variants.map((v) => [v.name, []]));
  const cpu = new Map<string, CpuSpent>(variants.map((v) => [v.name, { selfMs: 0, othersMs: [] }]));
  for (let round = 0; round < count; round++) {
    const order = variants.map((_, i) => variants[(i + round) % variants.length]!);
    for (const v of order) {
      // A pause, so that the tail of the previous variant (GC, the dev server's writes) does not land on this one.
      await sleep(SETTLE_MS);
      const items = deliveries(v.perRound);
      const spent = cpuMeter(pids);
      const figures = await closedLoop(items, CONCURRENCY, v.send);
      const used = spent();
      runs.get(v.name)!.push(figures);
      cpu.set(v.name, addCpu(cpu.get(v.name)!, used));
      console.log(`  round ${round + 1}  ${line(v.name, figures, used)}`);
    }
  }
  return new Map(
    variants.map((v) => [
      v.name,
      { figures: combined(runs.get(v.name)!), cpu: cpu.get(v.name)!, rounds: runs.get(v.name)! },
    ]),
  );
}

async function main(): Promise<number> {
  reportSize(
    `${ROUNDS} rounds of ${PER_ROUND} deliveries through Temporal, ${HTTP_ROUNDS} of ${PER_ROUND_HTTP} without, ${CONCURRENCY} at once; CPU ${CPU_ROUNDS} rounds of ${CPU_PER_ROUND} at ${CPU_RATE}/s each way; visibility ${VISIBILITY_SAMPLE} at ${VISIBILITY_RATE}/s (BENCH_ROUNDS, BENCH_DELIVERIES, BENCH_HTTP_ROUNDS, BENCH_HTTP_DELIVERIES, BENCH_CPU_ROUNDS, BENCH_CPU_DELIVERIES, BENCH_CPU_RATE, BENCH_VISIBILITY_DELIVERIES, BENCH_VISIBILITY_RATE)`,
  );
  const cliPath = await resolveTemporalCli();
  const server = await startDevServer({ cliPath, logFile: path.join(os.tmpdir(), 'bench-temporal.log') });
  const payloadKeys = readPayloadKeys();
  const dataConverter = dataConverterFor(payloadKeys);
  const connection = await Connection.connect({ address: server.address });
  const client = new Client({ connection, dataConverter });
  const logger = pino({ level: 'info' }, pino.destination({ dest: '/dev/null', sync: false }));
  const spoolRoot = path.join(os.tmpdir(), `bench-bridge-${process.pid}`);
  const bridgeLog = path.join(os.tmpdir(), 'bench-bridge-process.log');
  const bridgeProcess = await startBridgeProcess({
    temporalAddress: server.address,
    taskQueue: TASK_QUEUE,
    secret: SECRET,
    spoolDir: path.join(spoolRoot, 'process'),
    logFile: bridgeLog,
  });
  const minimalBridge = await startMinimalBridgeProcess({
    temporalAddress: server.address,
    taskQueue: TASK_QUEUE,
    logFile: path.join(os.tmpdir(), 'bench-minimal-bridge-process.log'),
  });
  const withoutTemporal = await startBridgeWithoutTemporal({
    secret: SECRET,
    spoolDir: path.join(spoolRoot, 'no-temporal'),
    logger,
  });
  // The same app as run with BRIDGE_LOG_LEVEL=warn: what the line per accepted delivery costs.
  const warnLogger = pino({ level: 'warn' }, pino.destination({ dest: '/dev/null', sync: false }));
  const withoutTemporalAtWarn = await startBridgeWithoutTemporal({
    secret: SECRET,
    spoolDir: path.join(spoolRoot, 'no-temporal-warn'),
    logger: warnLogger,
  });
  // Answers the way the bridge does (no ETag, the body serialised once), so only the bridge's own work differs.
  const bareApp = express().set('etag', false);
  const accepted = JSON.stringify({ status: 'accepted' });
  bareApp.post('/webhooks', express.raw({ type: () => true, limit: 1024 * 1024 }), (_req, res) => {
    res.status(202).type('application/json').send(accepted);
  });
  const bare = await listen(bareApp);
  const http = keepAlivePostClient(CONCURRENCY);
  const direct: Send = async (d) => {
    const routed = routeIncoming({ body: JSON.parse(d.raw), batchId: d.batchId, receivedAt: new Date().toISOString() });
    await Promise.all(
      routed.targets.map((t) => deliverToResource({ client, taskQueue: TASK_QUEUE }, t.resource, t.delivery)),
    );
  };
  const names = {
    bare: 'bare express route (raw body, 202)',
    noTemporal: 'bridge app without Temporal (verify + validate)',
    noTemporalAtWarn: 'bridge app without Temporal, log level warn',
    direct: 'direct signalWithStart (this process)',
    bridge: 'bridge (own process, as deployed)',
  };
  const withoutTemporalVariants: Variant[] = [
    { name: names.bare, send: post(http, bare.url), perRound: PER_ROUND_HTTP },
    { name: names.noTemporal, send: post(http, withoutTemporal.url), perRound: PER_ROUND_HTTP },
    { name: names.noTemporalAtWarn, send: post(http, withoutTemporalAtWarn.url), perRound: PER_ROUND_HTTP },
  ];
  const temporalVariants: Variant[] = [
    { name: names.direct, send: direct, perRound: PER_ROUND },
    { name: names.bridge, send: post(http, bridgeProcess.url), perRound: PER_ROUND },
  ];

  try {
    console.log(
      `bridge benchmark: ${HTTP_ROUNDS} rounds × ${PER_ROUND_HTTP} deliveries of the variants without Temporal (first, the dev server idle), then ${ROUNDS} rounds × ${PER_ROUND} of those with Temporal; concurrency ${CONCURRENCY}, warm-up ${WARM_UP} (×3 without Temporal)`,
    );
    console.log(
      `machine: ${os.cpus().length} cores, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, load average ${loadAverage()}`,
    );
    console.log(
      `Temporal: CLI dev server (${path.basename(path.dirname(cliPath))}) start-dev, in-memory SQLite, headless, --log-level warn, namespace default; no worker during the throughput rounds`,
    );
    const pids = [server.pid, bridgeProcess.pid];
    const total = new Map([
      ...(await rounds(withoutTemporalVariants, pids, HTTP_ROUNDS)),
      ...(await rounds(temporalVariants, pids, ROUNDS)),
    ]);
    const variants = [...withoutTemporalVariants, ...temporalVariants];
    console.log(`all rounds (load average now ${loadAverage()}):`);
    for (const v of variants) console.log(`  ${line(v.name, total.get(v.name)!.figures, total.get(v.name)!.cpu)}`);
    const figure = (name: string) => total.get(name)!.figures;
    // The throughput a target judges: the median of the rounds' (one slow round, from load elsewhere, moves it least).
    const median = (name: string) =>
      percentile(
        total.get(name)!.rounds.map((r) => r.perSecond),
        50,
      );
    console.log(
      `direct signalWithStart mean latency ${mean(figure(names.direct).latencies).toFixed(1)} ms; bridge (own process) mean ${mean(figure(names.bridge).latencies).toFixed(1)} ms`,
    );

    // Latency before the CPU rounds: their thousands of new resource workflows at 100 a second
    // leave the dev server slower for a while, which is not the bridge's latency.
    const visibility = await visibilityLatency(server.address, server.pid, dataConverter, client, spoolRoot, http);
    const cpu = await bridgeCpu(
      http,
      [
        { name: 'bridge process', pid: bridgeProcess.pid, url: bridgeProcess.url },
        { name: 'minimal express + signalWithStart process', pid: minimalBridge.pid, url: minimalBridge.url },
      ],
      WARM_UP + ROUNDS * PER_ROUND,
    );
    await bridgeProcess.stop();
    await minimalBridge.stop();
    const visibleLine = (what: string, v: Visibility, through = 'a bridge process') => {
      console.log(
        `POST → delivery processed by resource/idv/<id> ${what} (the resource's first workflow task completed after the delivery's signal, from the history), ${v.count} deliveries through ${through} at ${VISIBILITY_RATE} a second (${v.perSecond.toFixed(1)} reached), a worker running: ` +
          `p50 ${v.p50.toFixed(1)} ms, p99 ${v.p99.toFixed(1)} ms (the 202 alone: p50 ${v.ackP50.toFixed(1)} ms, p99 ${v.ackP99.toFixed(1)} ms)`,
      );
      console.log(`  of which: ${v.breakdown}`);
    };
    visibleLine(
      'that its step waits on',
      visibility.waitingMinimal,
      "the minimal express + signalWithStart process (the baseline; its halves taken between the bridge's)",
    );
    visibleLine('that its step waits on (the resource started by the subscription)', visibility.waiting);
    visibleLine('that the delivery starts (no step subscribed yet)', visibility.starting);

    const results: BenchResult[] = [
      ratioReported(
        `bridge throughput (median of ${ROUNDS} rounds)`,
        { value: median(names.bridge), unit: 'deliveries/s' },
        { value: median(names.direct), name: 'direct signalWithStart' },
      ),
      ratioAtMost(
        `bridge process CPU per delivery at ${CPU_RATE}/s (median of ${CPU_ROUNDS} rounds)`,
        { value: cpu.bridge, unit: 'ms CPU/delivery' },
        { value: cpu.baseline, name: 'minimal express + signalWithStart process' },
        CPU_RATIO_MAX,
      ),
      ratioReported(
        'bridge verify-and-validate',
        { value: figure(names.noTemporal).perSecond, unit: 'deliveries/s' },
        { value: figure(names.bare).perSecond, name: 'bare express route' },
      ),
      ratioReported(
        'bridge verify-and-validate, BRIDGE_LOG_LEVEL=warn',
        { value: figure(names.noTemporalAtWarn).perSecond, unit: 'deliveries/s' },
        { value: figure(names.bare).perSecond, name: 'bare express route' },
      ),
      {
        name: `bridge POST→visible p50 at ${VISIBILITY_RATE}/s`,
        figure: visibility.waiting.p50,
        unit: 'ms',
        baseline: null,
        baselineName: 'none',
        ratio: null,
        target: 'none',
        pass: null,
      },
      ratioAtMost(
        `bridge POST→visible p99 at ${VISIBILITY_RATE}/s`,
        { value: visibility.waiting.p99, unit: 'ms' },
        { value: visibility.waitingMinimal.p99, name: 'minimal express + signalWithStart process' },
        VISIBILITY_P99_RATIO_MAX,
      ),
      {
        name: `bridge POST→visible p99 at ${VISIBILITY_RATE}/s, the delivery starting its resource`,
        figure: visibility.starting.p99,
        unit: 'ms',
        baseline: null,
        baselineName: 'none',
        ratio: null,
        target: 'none',
        pass: null,
      },
    ];
    for (const r of results.filter((x) => x.ratio !== null)) {
      console.log(
        `${r.name}: ${shown(r.figure)} ${r.unit} / ${r.baselineName} ${shown(r.baseline!)} = ${r.ratio!.toFixed(2)} (target ${r.target}${r.pass === null ? '' : r.pass ? ': met' : ': MISSED'})`,
      );
    }
    for (const r of results) reportResult(r);
    return exitCodeOf(results);
  } finally {
    http.close();
    await bare.stop();
    await withoutTemporal.stop();
    await withoutTemporalAtWarn.stop();
    await bridgeProcess.stop();
    await minimalBridge.stop();
    await connection.close();
    await server.stop();
    rmSync(spoolRoot, { recursive: true, force: true });
  }
}

/** A figure for a person: whole numbers for throughputs, two decimals for milliseconds of CPU. */
const shown = (value: number) => value.toFixed(value >= 100 ? 0 : 2);

/**
 * The bridge process's CPU per delivery against the baseline process's, the same open loop
 * (signed deliveries, one keep-alive agent) driving each at the same time (cpuRounds.ts says
 * why); the medians of the rounds' figures. A process's CPU per delivery falls over its first
 * few thousand deliveries (V8 optimising the hot paths), and was higher again after it sat idle
 * for a while: the baseline first takes as many as the bridge process took before
 * (`bridgeTook`) while the bridge is kept busy at a trickle, then each takes WARM_UP more, so
 * both are measured equally warm.
 */
async function bridgeCpu(
  http: PostClient,
  [bridge, baseline]: [CpuProcess, CpuProcess],
  bridgeTook: number,
): Promise<{ bridge: number; baseline: number }> {
  console.log(
    `CPU per delivery: ${CPU_ROUNDS} rounds × ${CPU_PER_ROUND} deliveries at ${CPU_RATE}/s (an open loop) to each of the ${bridge.name} (pid ${bridge.pid}) and the ${baseline.name} (pid ${baseline.pid}), both at once, each process's CPU from /proc; warm-up ${bridgeTook} deliveries to the baseline (as many as the bridge process took so far), then ${WARM_UP} to each`,
  );
  let catchingUp = true;
  const trickle = (async () => {
    while (catchingUp) await Promise.all([post(http, bridge.url)(delivery()), sleep(TRICKLE_EVERY_MS)]);
  })();
  try {
    await closedLoop(deliveries(bridgeTook), CONCURRENCY, post(http, baseline.url));
  } finally {
    catchingUp = false;
    await trickle;
  }
  for (const p of [bridge, baseline]) await closedLoop(deliveries(WARM_UP), CONCURRENCY, post(http, p.url));
  const sides = [bridge, baseline].map((p) => ({ name: p.name, pid: p.pid, send: post(http, p.url) }));
  const measured = await cpuRounds(sides, {
    rounds: CPU_ROUNDS,
    perRound: CPU_PER_ROUND,
    perSecond: CPU_RATE,
    settleMs: SETTLE_MS,
    items: deliveries,
    onRound: (round, name, f: CpuRound) => {
      console.log(
        `  round ${round}  ${name.padEnd(44)} ${f.msPerDelivery.toFixed(2)} ms CPU/delivery (${f.cpuMs.toFixed(0)} ms over ${f.accepted} accepted, ${f.refused} refused)  POST → 202 p99 ${f.p99.toFixed(1)} ms`,
      );
      // Under BENCH_BRIDGE_NODE_ARGS='--cpu-prof …': the round's span, for bench/throughputCpuByPart.ts given
      // only that process's profiles (both sides run at once; a profile's file name carries its pid).
      if (PROFILING) console.log(windowLine({ name, journeys: f.accepted, fromUs: f.fromUs, toUs: f.toUs }));
    },
  });
  const bridgeRounds = measured.get(bridge.name)!;
  const baselineRounds = measured.get(baseline.name)!;
  const bridgeMs = medianMsPerDelivery(bridgeRounds);
  const baselineMs = medianMsPerDelivery(baselineRounds);
  const roundRatios = bridgeRounds.map((r, i) => (r.msPerDelivery / baselineRounds[i]!.msPerDelivery).toFixed(2));
  console.log(
    `CPU per delivery, median round: ${bridge.name} ${bridgeMs.toFixed(2)} ms, ${baseline.name} ${baselineMs.toFixed(2)} ms, ratio ${(bridgeMs / baselineMs).toFixed(2)} (round by round ${roundRatios.join(', ')})`,
  );
  return { bridge: bridgeMs, baseline: baselineMs };
}

interface CpuProcess {
  name: string;
  pid: number;
  url: string;
}

/** One paced load's deliveries through one receiver. */
interface PhaseSamples {
  perSecond: number;
  latencies: number[];
  /** Each delivery's task waiting for a worker (scheduled → started). */
  waits: number[];
  /** Each delivery's task on the worker (started → completed). */
  works: number[];
  acks: number[];
  cpu: CpuSpent;
}

interface Visibility {
  count: number;
  perSecond: number;
  p50: number;
  p99: number;
  ackP50: number;
  ackP99: number;
  breakdown: string;
}

/**
 * The bridge process and the minimal process on a task queue that a worker serves, deliveries
 * POSTed at VISIBILITY_RATE a second; each one's latency runs from its POST to the first workflow
 * task its resource workflow completed after the signal (the delivery is in the workflow's state
 * from then on), read from the histories once the load is over. Polling the state query instead
 * would put a query every 20 ms per delivery in flight on the worker, several hundred a second at
 * this rate: the measurement would become the load.
 */
async function visibilityLatency(
  address: string,
  serverPid: number,
  dataConverter: ReturnType<typeof dataConverterFor>,
  client: Client,
  spoolRoot: string,
  http: PostClient,
): Promise<{ waiting: Visibility; waitingMinimal: Visibility; starting: Visibility }> {
  Runtime.install({ logger: new DefaultLogger('WARN') });
  const { code } = await bundleWorkflowCode(workflowBundleOptions());
  const nativeConnection = await NativeConnection.connect({ address });
  // The resource workflow runs no activity unless a subscriber asks it to poll: none here.
  const worker = await Worker.create({
    connection: nativeConnection,
    taskQueue: VISIBLE_TASK_QUEUE,
    workflowBundle: { code },
    dataConverter,
  });
  const running = worker.run();
  const bridge = await startBridgeProcess({
    temporalAddress: address,
    taskQueue: VISIBLE_TASK_QUEUE,
    secret: SECRET,
    spoolDir: path.join(spoolRoot, 'visible'),
    logFile: path.join(os.tmpdir(), 'bench-bridge-process.log'),
  });
  const minimal = await startMinimalBridgeProcess({
    temporalAddress: address,
    taskQueue: VISIBLE_TASK_QUEUE,
    logFile: path.join(os.tmpdir(), 'bench-minimal-bridge-process.log'),
  });
  /**
   * One paced load. `subscribed`: each resource workflow is started first by a subscription, as a
   * step starts it when it asks the provider (the subscriber itself is not running: forwarding to
   * it fails after the task that counts, as it would fail for a step that closed); otherwise the
   * delivery starts it (a webhook that arrives before its step subscribed, or for no step).
   */
  const phase = async (
    subscribed: boolean,
    receiver: BridgeProcess,
    size: number,
    purpose: 'measured' | 'warm-up' = 'measured',
  ): Promise<PhaseSamples> => {
    const label = `${purpose === 'warm-up' ? 'warm-up: ' : ''}${receiver === bridge ? 'bridge process' : 'minimal process'}`;
    const acks: number[] = [];
    const postedAt = new Map<string, number>();
    const send: Send = async (d) => {
      postedAt.set(d.requestId, Date.now());
      const t0 = performance.now();
      await post(http, receiver.url)(d);
      acks.push(performance.now() - t0);
    };
    const sample = deliveries(size);
    if (subscribed) {
      const target = { client, taskQueue: VISIBLE_TASK_QUEUE };
      await closedLoop(sample, CONCURRENCY, (d) =>
        subscribeToResourceWorkflow(
          target,
          { kind: 'idv', id: d.requestId },
          { workflowId: `bench/step/${d.requestId}` },
        ),
      );
      await Promise.all(sample.map((d) => processedAt(client, d.requestId, subscribeSignal.name)));
    }
    const spent = cpuMeter([serverPid, receiver.pid]);
    const load = await pacedLoad(sample, VISIBILITY_RATE, send);
    const cpu = spent();
    const processed = await Promise.all(
      sample.map(async (d) => ({
        ...(await processedAt(client, d.requestId, deliverSignal.name)),
        posted: postedAt.get(d.requestId)!,
      })),
    );
    const latencies = processed.map((p) => p.completed - p.posted);
    console.log(
      `  ${label}, ${subscribed ? 'subscribed' : 'not subscribed'}: ${size} deliveries, POST → processed p50 ${percentile(latencies, 50).toFixed(0)} ms, p99 ${percentile(latencies, 99).toFixed(0)} ms`,
    );
    return {
      perSecond: load.perSecond,
      latencies,
      waits: processed.map((p) => p.started - p.scheduled),
      works: processed.map((p) => p.completed - p.started),
      acks,
      cpu,
    };
  };
  try {
    // Warm-up, not counted: both processes and the worker run the measured path first.
    for (const receiver of [minimal, bridge]) await phase(true, receiver, WARM_UP_VISIBILITY, 'warm-up');
    // Each receiver takes half its sample in turn, so that drift over the phases (the dev server
    // slows as its store fills) falls on both. The bridge takes the outer phases, the first right
    // after the warm-up, which has often read the slowest: an effect of the order counts against
    // the bridge, not for it.
    const half = Math.ceil(VISIBILITY_SAMPLE / 2);
    const bridgeFirst = await phase(true, bridge, half);
    const minimalFirst = await phase(true, minimal, half);
    const minimalSecond = await phase(true, minimal, half);
    const bridgeSecond = await phase(true, bridge, half);
    // Reported with no target: one phase of the same size as a half.
    const starting = await phase(false, bridge, half);
    return {
      waiting: summarise([bridgeFirst, bridgeSecond]),
      waitingMinimal: summarise([minimalFirst, minimalSecond]),
      starting: summarise([starting]),
    };
  } finally {
    await bridge.stop();
    await minimal.stop();
    worker.shutdown();
    await running;
    await nativeConnection.close();
  }
}

/** One receiver's phases pooled: the percentiles of all their deliveries together. */
function summarise(phases: readonly PhaseSamples[]): Visibility {
  const all = (pick: (p: PhaseSamples) => number[]) => phases.flatMap(pick);
  const latencies = all((p) => p.latencies);
  const cpu: CpuSpent = {
    selfMs: phases.reduce((sum, p) => sum + p.cpu.selfMs, 0),
    othersMs: phases[0]!.cpu.othersMs.map((_, i) => phases.reduce((sum, p) => sum + p.cpu.othersMs[i]!, 0)),
  };
  const part = (name: string, values: number[]) =>
    `${name} p50 ${percentile(values, 50).toFixed(0)} ms, p99 ${percentile(values, 99).toFixed(0)} ms`;
  return {
    count: latencies.length,
    perSecond: phases.reduce((sum, p) => sum + p.perSecond, 0) / phases.length,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    ackP50: percentile(
      all((p) => p.acks),
      50,
    ),
    ackP99: percentile(
      all((p) => p.acks),
      99,
    ),
    breakdown:
      `${part(
        'waiting for a worker to take the task (task scheduled → started)',
        all((p) => p.waits),
      )}; ` +
      `${part(
        'the worker on it (started → completed)',
        all((p) => p.works),
      )}; ` +
      `over the load (here: the load generator and the worker) ${cpuColumns(cpu, latencies.length)}`,
  };
}

/**
 * The first workflow task of the resource workflow of `requestId` after its signal `signalName`
 * (the delivery, or the subscription that started it): when it was scheduled, started by a worker
 * and completed (epoch ms, from the history).
 */
async function processedAt(
  client: Client,
  requestId: string,
  signalName: string,
): Promise<{ scheduled: number; started: number; completed: number }> {
  const handle = client.workflow.getHandle(resourceWorkflowId({ kind: 'idv', id: requestId }));
  const deadline = Date.now() + 30_000;
  for (;;) {
    const events = (await handle.fetchHistory()).events ?? [];
    const signaled = events.findIndex((e) => e.workflowExecutionSignaledEventAttributes?.signalName === signalName);
    const after = signaled < 0 ? [] : events.slice(signaled + 1);
    const completed = after.findIndex((e) => e.workflowTaskCompletedEventAttributes);
    if (completed >= 0) {
      // The task that completed is the last one scheduled and started before it (a signal can land between).
      const upToIt = events.slice(0, signaled + 1 + completed).reverse();
      const last = (has: (e: (typeof events)[number]) => unknown) => eventTimeMs(upToIt.find(has) ?? {});
      return {
        scheduled: last((e) => e.workflowTaskScheduledEventAttributes),
        started: last((e) => e.workflowTaskStartedEventAttributes),
        completed: eventTimeMs(after[completed]!),
      };
    }
    if (Date.now() > deadline) throw new Error(`${signalName} for ${requestId} not processed after 30 s`);
    await sleep(200);
  }
}

exitWhenDone(main);
