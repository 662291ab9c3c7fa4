/**
 * The bridge as it is deployed: `webhook-bridge/main.ts` (`npm run bridge`) in a process of its
 * own, configured from the environment, logging at its production level to a file. For the bridge
 * benchmark, whose load generator must not share the bridge's event loop.
 */
import { spawn } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { freePort } from '../cli/freePort';
import { projectRoot } from '../config/projectRoot';

export interface BridgeProcess {
  url: string;
  pid: number;
  stop(): Promise<void>;
}

/** Extra node arguments for the bridge process, e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof` to profile it. */
const EXTRA_NODE_ARGS = (process.env.BENCH_BRIDGE_NODE_ARGS ?? '').split(' ').filter(Boolean);

export interface BridgeProcessOptions {
  temporalAddress: string;
  taskQueue: string;
  secret: string;
  spoolDir: string;
  logFile: string;
  /** More of the bridge's variables (BRIDGE_LOG_LEVEL, BRIDGE_SIGNAL_TIMEOUT_MS, …). */
  env?: Record<string, string>;
}

export async function startBridgeProcess(options: BridgeProcessOptions): Promise<BridgeProcess> {
  const port = await freePort();
  const log = openSync(options.logFile, 'a');
  const child = spawn(
    process.execPath,
    [...EXTRA_NODE_ARGS, '--import', 'tsx', path.join(projectRoot, 'webhook-bridge', 'main.ts')],
    {
      cwd: projectRoot,
      env: {
        ...process.env,
        BRIDGE_PORT: String(port),
        BRIDGE_SPOOL_DIR: options.spoolDir,
        WEBHOOK_SECRET: options.secret,
        TEMPORAL_ADDRESS: options.temporalAddress,
        TEMPORAL_NAMESPACE: 'default',
        TEMPORAL_TASK_QUEUE: options.taskQueue,
        ...options.env,
      },
      stdio: ['ignore', log, log],
    },
  );
  closeSync(log);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let gone = false;
  void exited.then(() => (gone = true));
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (gone) throw new Error(`the bridge process exited before it answered; see ${options.logFile}`);
    const ok = await fetch(`${base}/healthz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`the bridge process did not answer within 60 s; see ${options.logFile}`);
    }
    await sleep(200);
  }
  return {
    url: `${base}/webhooks`,
    pid: child.pid ?? -1,
    async stop() {
      if (!gone) child.kill('SIGTERM');
      await exited;
    },
  };
}
