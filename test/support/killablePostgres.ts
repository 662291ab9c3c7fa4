/**
 * A throwaway PostgreSQL cluster that a fault test can SIGKILL and start again on the same data
 * directory and port (crash recovery included), started like `.ci/store-tests-on-postgres` starts
 * one: Debian's server binaries, owned by the `postgres` user when running as root (the server
 * refuses to run as root). Without the binaries it throws, naming the package to install.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../../cli/freePort';

const POSTGRES_LIB = '/usr/lib/postgresql';

export interface KillablePostgres {
  url: string;
  /** SIGKILL the postmaster and every backend, and wait until they are gone. */
  kill(): Promise<void>;
  /** Start it again on the same data directory and port (crash recovery runs). */
  start(): void;
  /** Stop it and remove its directory. */
  remove(): void;
}

function serverBin(): string {
  const versions = existsSync(POSTGRES_LIB)
    ? readdirSync(POSTGRES_LIB).filter((v) => existsSync(path.join(POSTGRES_LIB, v, 'bin', 'pg_ctl')))
    : [];
  const latest = versions.sort((a, b) => Number(a) - Number(b)).at(-1);
  if (!latest)
    throw new Error(
      `no PostgreSQL server binaries under ${POSTGRES_LIB}: install Debian's postgresql package (.ci/store-tests-on-postgres does)`,
    );
  return path.join(POSTGRES_LIB, latest, 'bin');
}

export async function startKillablePostgres(): Promise<KillablePostgres> {
  const bin = serverBin();
  const asRoot = process.getuid?.() === 0;
  const dir = mkdtempSync(path.join(os.tmpdir(), 'fault-pg-'));
  const data = path.join(dir, 'data');
  const port = await freePort();
  const run = (command: string, args: string[]) => {
    if (asRoot)
      execFileSync('su', ['postgres', '-s', '/bin/sh', '-c', [command, ...args].map((a) => `'${a}'`).join(' ')], {
        stdio: 'pipe',
      });
    else execFileSync(command, args, { stdio: 'pipe' });
  };
  if (asRoot) execFileSync('chown', ['postgres', dir]);
  run(path.join(bin, 'initdb'), ['-D', data, '-U', 'postgres', '-A', 'trust', '--no-sync']);
  const log = path.join(dir, 'server.log');
  const start = () => {
    try {
      run(path.join(bin, 'pg_ctl'), [
        '-D',
        data,
        '-l',
        log,
        '-w',
        '-o',
        `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1`,
        'start',
      ]);
    } catch (error) {
      const tail = existsSync(log) ? readFileSync(log, 'utf8').trim().split('\n').slice(-5).join('\n') : '';
      throw new Error(`PostgreSQL did not start: ${(error as Error).message.split('\n')[0]}\n${tail}`, {
        cause: error,
      });
    }
  };
  start();
  return {
    url: `postgresql://postgres@127.0.0.1:${port}/postgres`,
    async kill() {
      const postmaster = Number(readFileSync(path.join(data, 'postmaster.pid'), 'utf8').split('\n')[0]);
      const pids = [postmaster, ...childrenOf(postmaster)];
      for (const pid of pids) signal(pid, 'SIGKILL');
      await Promise.all(pids.map((pid) => gone(pid)));
      // The killed postmaster may stay a zombie for a while (reparented to an init that reaps
      // late), and PostgreSQL takes a lock file whose process exists as a running server.
      rmSync(path.join(data, 'postmaster.pid'), { force: true });
      rmSync(path.join(dir, `.s.PGSQL.${port}.lock`), { force: true });
    },
    start,
    remove() {
      try {
        run(path.join(bin, 'pg_ctl'), ['-D', data, '-m', 'immediate', 'stop']);
      } catch {
        // already stopped (killed last)
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
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

async function gone(pid: number, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (exited(pid)) return;
    if (Date.now() > deadline) throw new Error(`PostgreSQL process ${pid} still running ${timeoutMs} ms after SIGKILL`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
