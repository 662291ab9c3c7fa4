/**
 * SIGKILL a process and its children (a server and the workers it forked), and wait until every
 * one has exited: a fault test kills a server this way to start it again on the same files.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

export async function killProcessTree(pid: number, timeoutMs = 10_000): Promise<void> {
  const pids = [pid, ...childrenOf(pid)];
  for (const each of pids) signal(each, 'SIGKILL');
  await Promise.all(pids.map((each) => gone(each, timeoutMs)));
}

function childrenOf(pid: number): number[] {
  let out = '';
  try {
    out = execFileSync('ps', ['-o', 'pid=', '--ppid', String(pid)], { encoding: 'utf8' });
  } catch {
    // ps exits 1 when there are none
  }
  return out
    .split('\n')
    .map((l) => Number(l.trim()))
    .filter((n) => n > 0);
}

function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name);
  } catch {
    // already gone
  }
}

/** A process that has exited, reaped or a zombie nobody reaps (in a container without an init). */
function exited(pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.startsWith('Z') ?? true;
  } catch {
    return true;
  }
}

async function gone(pid: number, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (exited(pid)) return;
    if (Date.now() > deadline) throw new Error(`process ${pid} still running ${timeoutMs} ms after SIGKILL`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
