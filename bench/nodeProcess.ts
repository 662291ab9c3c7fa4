/**
 * A benchmark's server in a Node process of its own (the bridge as deployed, the bridge
 * benchmark's baseline), started one way for all of them: the same node flags, `tsx`, a free
 * loopback port in its environment, output to a log file, ready once `/healthz` answers. A load
 * generator in another process does not share its event loop, and the process's CPU can be read
 * on its own (cpuMeter.ts).
 */
import { spawn } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { freePort } from '../cli/freePort';
import { projectRoot } from '../config/projectRoot';

/** Extra node arguments for every such process, e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof` to profile it. */
const EXTRA_NODE_ARGS = (process.env.BENCH_BRIDGE_NODE_ARGS ?? '').split(' ').filter(Boolean);
const READY_WITHIN_MS = 60_000;

export interface NodeProcess {
  /** `http://127.0.0.1:<port>`. */
  baseUrl: string;
  pid: number;
  stop(): Promise<void>;
}

export interface NodeProcessOptions {
  /** The script to run, a path from the project root. */
  script: string;
  /** The variable that gives the process its port. */
  portVariable: string;
  env: Record<string, string>;
  logFile: string;
  /** What it is, for the errors. */
  name: string;
  /** Node arguments for this process, beside BENCH_BRIDGE_NODE_ARGS (`--cpu-prof`, …). */
  nodeArgs?: string[];
}

export async function startNodeProcess(options: NodeProcessOptions): Promise<NodeProcess> {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const log = openSync(options.logFile, 'a');
  const child = spawn(
    process.execPath,
    [...EXTRA_NODE_ARGS, ...(options.nodeArgs ?? []), '--import', 'tsx', path.join(projectRoot, options.script)],
    {
      cwd: projectRoot,
      env: { ...process.env, ...options.env, [options.portVariable]: String(port) },
      stdio: ['ignore', log, log],
    },
  );
  closeSync(log);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let gone = false;
  void exited.then(() => (gone = true));
  const deadline = Date.now() + READY_WITHIN_MS;
  for (;;) {
    if (gone) throw new Error(`the ${options.name} process exited before it answered; see ${options.logFile}`);
    const ok = await fetch(`${baseUrl}/healthz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`the ${options.name} process did not answer within 60 s; see ${options.logFile}`);
    }
    await sleep(200);
  }
  return {
    baseUrl,
    pid: child.pid ?? -1,
    async stop() {
      if (!gone) child.kill('SIGTERM');
      await exited;
    },
  };
}
