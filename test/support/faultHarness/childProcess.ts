/**
 * A project process (worker, bridge) as a child of its own, for tests that SIGKILL it: node itself
 * with tsx's loader, not the tsx wrapper, so the signal reaches the process and not a parent.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { projectRoot } from '../../../config/projectRoot';

export interface Child {
  child: ChildProcess;
  exited: Promise<void>;
  /** SIGKILL, and wait until it is gone. */
  kill(): Promise<void>;
  /** SIGTERM (a graceful stop), and wait until it is gone. */
  stop(): Promise<void>;
}

const running = new Set<ChildProcess>();

/** Kills what a suite left running (call from afterAll). */
export function killChildren(): void {
  for (const child of running) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
}

/**
 * Starts `script` (relative to the project root), node given `nodeArgs` too (`--cpu-prof`, …), and
 * resolves once its output contains `ready`.
 */
export async function startChild(
  script: string,
  env: Record<string, string>,
  ready: string,
  timeoutMs = 120_000,
  nodeArgs: string[] = [],
): Promise<Child> {
  const child = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', path.join(projectRoot, script)], {
    cwd: projectRoot,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  void exited.then(() => running.delete(child));
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`${script} not ready after ${timeoutMs} ms: ${output.slice(-500)}`)),
      timeoutMs,
    );
    const watch = (chunk: Buffer) => {
      output = (output + chunk.toString()).slice(-20_000);
      if (output.includes(ready)) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout?.on('data', watch);
    child.stderr?.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-20_000)));
    void exited.then(() => {
      clearTimeout(timer);
      reject(new Error(`${script} exited before it was ready: ${output.slice(-500)}`));
    });
  });
  const end = async (signal: NodeJS.Signals) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    await exited;
  };
  return { child, exited, kill: () => end('SIGKILL'), stop: () => end('SIGTERM') };
}
