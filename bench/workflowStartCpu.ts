/**
 * Worker CPU per workflow start: what a worker spends to start resource workflows, the
 * most numerous type, each receiving one delivery by signalWithStart: what a new run costs the
 * worker's (reused) V8 context, the bundle's modules included unless it preloads them
 * (worker/workflowBundle.ts). Compares bundles side by side on one dev server, alternating them over
 * rounds so that the load of a shared machine falls on each alike.
 *
 *   npm run bench:start-cpu -- [--bundle label=path ...] [--workflows 200] [--rounds 2]
 *
 * Without --bundle, bundles the current workflows/. A bundle of another revision:
 * `npx tsx cli/bundleWorkflows.ts /tmp/before.js` in a checkout of it.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { bundleWorkflowCode } from '@temporalio/worker';
import { startDevServer } from '../cli/devServer';
import { resolveTemporalCli } from '../cli/temporalCli';
import { resourceWorkflowId } from '../provider/correlationKeys';
import { workflowBundleOptions } from '../worker/workflowBundle';
import { deliverSignal, type ResourceDelivery } from '../client/resourceMessages';
import type { resourceWorkflow } from '../workflows/resourceWorkflow';

interface Options {
  bundles: { label: string; codePath: string }[];
  workflows: number;
  rounds: number;
}

const WARM_UP = 20;
const BATCH = 10;
const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-start-cpu-'));

async function options(argv: string[]): Promise<Options> {
  const bundles: Options['bundles'] = [];
  let workflows = 200;
  let rounds = 2;
  for (let i = 0; i < argv.length; i++) {
    const value = argv[i + 1] ?? '';
    if (argv[i] === '--bundle') {
      const [label, codePath] = value.split('=');
      if (!label || !codePath) throw new Error('--bundle takes label=path');
      bundles.push({ label, codePath: path.resolve(codePath) });
    } else if (argv[i] === '--workflows') workflows = Number(value);
    else if (argv[i] === '--rounds') rounds = Number(value);
    else continue;
    i++;
  }
  if (bundles.length === 0) {
    const codePath = path.join(dir, 'current.js');
    writeFileSync(codePath, (await bundleWorkflowCode(workflowBundleOptions())).code);
    bundles.push({ label: 'current', codePath });
  }
  return { bundles, workflows, rounds };
}

function startBenchWorker(address: string, taskQueue: string, codePath: string): Promise<ChildProcess> {
  const child = fork(path.join(__dirname, 'workflowStartCpu', 'benchWorker.ts'), [], {
    execArgv: ['--import', 'tsx'],
    env: {
      ...process.env,
      BENCH_TEMPORAL_ADDRESS: address,
      BENCH_TASK_QUEUE: taskQueue,
      BENCH_WORKFLOW_BUNDLE: codePath,
    },
  });
  return new Promise((resolve, reject) => {
    child.once('message', (m) => (m === 'ready' ? resolve(child) : reject(new Error(`unexpected ${String(m)}`))));
    child.once('exit', (code) => reject(new Error(`bench worker exited (${String(code)})`)));
  });
}

/** The worker's CPU time so far, in milliseconds (user + system, every thread). */
function cpuOf(child: ChildProcess): Promise<number> {
  return new Promise((resolve) => {
    child.once('message', (m) => {
      const { cpu } = m as { cpu: NodeJS.CpuUsage };
      resolve((cpu.user + cpu.system) / 1000);
    });
    child.send('cpu');
  });
}

function delivery(n: number): ResourceDelivery {
  const now = new Date().toISOString();
  return {
    dedupeId: `bench-${n}`,
    eventType: 'DocumentProcessing.Completed',
    batchId: null,
    webhookId: 'bench',
    datetimeSent: now,
    receivedAt: now,
    parse: 'known',
    data: { status: 'Complete' },
  };
}

/**
 * Starts `count` resource workflows with one delivery each, a batch at a time, and waits until the
 * worker has run each one's first task. In batches because a flood of starts on a loaded machine
 * lets workflow tasks time out and run again, and the benchmark would count that work twice.
 */
async function startResources(client: Client, taskQueue: string, count: number): Promise<void> {
  for (let first = 0; first < count; first += BATCH) {
    const ids = Array.from({ length: Math.min(BATCH, count - first) }, () =>
      resourceWorkflowId({ kind: 'document', id: randomUUID() }),
    );
    await Promise.all(
      ids.map((id, n) =>
        client.workflow.signalWithStart<typeof resourceWorkflow, [ResourceDelivery]>('resourceWorkflow', {
          workflowId: id,
          taskQueue,
          args: [{ resource: { kind: 'document', id } }],
          signal: deliverSignal,
          signalArgs: [delivery(first + n)],
        }),
      ),
    );
    await firstTasksDone(client, ids);
  }
}

/** Started, signalled, and its first workflow task scheduled, started and completed: 5 events. */
async function firstTasksDone(client: Client, ids: string[]): Promise<void> {
  let pending = ids;
  while (pending.length > 0) {
    const done = await Promise.all(
      pending.map(async (id) => (await client.workflow.getHandle(id).describe()).historyLength >= 5),
    );
    pending = pending.filter((_, i) => !done[i]);
    if (pending.length > 0) await new Promise((r) => setTimeout(r, 100));
  }
}

async function measure(
  client: Client,
  address: string,
  codePath: string,
  workflows: number,
): Promise<{ cpuMsPerStart: number; wallMs: number }> {
  const taskQueue = `bench-start-cpu-${randomUUID()}`;
  const worker = await startBenchWorker(address, taskQueue, codePath);
  try {
    await startResources(client, taskQueue, WARM_UP);
    const cpuBefore = await cpuOf(worker);
    const started = Date.now();
    await startResources(client, taskQueue, workflows);
    const wallMs = Date.now() - started;
    return { cpuMsPerStart: ((await cpuOf(worker)) - cpuBefore) / workflows, wallMs };
  } finally {
    const exited = new Promise((r) => worker.once('exit', r));
    worker.send('stop');
    await exited;
  }
}

async function main(): Promise<void> {
  const { bundles, workflows, rounds } = await options(process.argv.slice(2));
  const server = await startDevServer({
    cliPath: await resolveTemporalCli(),
    logFile: path.join(dir, 'temporal-dev-server.log'),
  });
  const connection = await Connection.connect({ address: server.address });
  const client = new Client({ connection });
  const results = new Map<string, number[]>(bundles.map((b) => [b.label, []]));
  try {
    for (let round = 1; round <= rounds; round++) {
      for (const { label, codePath } of bundles) {
        const { cpuMsPerStart, wallMs } = await measure(client, server.address, codePath, workflows);
        results.get(label)?.push(cpuMsPerStart);
        console.log(
          `round ${round} ${label}: ${cpuMsPerStart.toFixed(2)} ms worker CPU per workflow start (${workflows} starts in ${wallMs} ms); load ${os.loadavg()[0]?.toFixed(1)}`,
        );
      }
    }
  } finally {
    await connection.close();
    await server.stop();
  }
  const medians = [...results].map(([label, figures]) => ({
    label,
    figures,
    median: [...figures].sort((a, b) => a - b)[Math.floor(figures.length / 2)] ?? NaN,
  }));
  const baseline = medians[0];
  for (const { label, figures, median } of medians) {
    const ratio =
      baseline && label !== baseline.label ? `, ${(median / baseline.median).toFixed(2)}× ${baseline.label}` : '';
    console.log(
      `${label}: median ${median.toFixed(2)} ms worker CPU per start${ratio} (rounds: ${figures.map((f) => f.toFixed(2)).join(', ')})`,
    );
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
