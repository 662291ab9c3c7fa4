/**
 * A throwaway PostgreSQL server in a temporary directory on a free port, for the fault suites
 * (which SIGKILL it and start it again on the same data and port, crash recovery included) and
 * the case file benchmark. Started the way `.ci/with-postgres` starts one: Debian's
 * server binaries, owned by the `postgres` user when running as root (the server refuses to run
 * as root). Never installs anything: without the binaries it throws, naming the package.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../../../cli/freePort';
import { killProcessTree } from './processTree';

const POSTGRES_LIB = '/usr/lib/postgresql';

export interface ThrowawayPostgres {
  url: string;
  /** What `postgres --version` says. */
  version: string;
  /** The server's settings, as a benchmark reports them. */
  settings: string;
  /** The temporary directory holding the data directory, the socket and the server's log. */
  dir: string;
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
      `no PostgreSQL server binaries under ${POSTGRES_LIB}: install Debian's postgresql package (.ci/with-postgres does)`,
    );
  return path.join(POSTGRES_LIB, latest, 'bin');
}

/** Runs a server binary, as the `postgres` user when this process is root. */
function runAsOwner(command: string, args: string[]): void {
  if (process.getuid?.() !== 0) {
    execFileSync(command, args, { stdio: 'pipe' });
    return;
  }
  const line = [command, ...args].map((a) => `'${a}'`).join(' ');
  execFileSync('su', ['postgres', '-s', '/bin/sh', '-c', line], { stdio: 'pipe' });
}

/** The last lines of the server's log, to say why it did not start. */
function logTail(log: string): string {
  return existsSync(log) ? readFileSync(log, 'utf8').trim().split('\n').slice(-5).join('\n') : '';
}

export async function startThrowawayPostgres(): Promise<ThrowawayPostgres> {
  const bin = serverBin();
  const dir = mkdtempSync(path.join(os.tmpdir(), 'throwaway-pg-'));
  const data = path.join(dir, 'data');
  const log = path.join(dir, 'server.log');
  const port = await freePort();
  const pgCtl = (args: string[]) => runAsOwner(path.join(bin, 'pg_ctl'), ['-D', data, ...args]);
  const start = () => {
    try {
      pgCtl(['-l', log, '-w', '-o', `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1`, 'start']);
    } catch (error) {
      throw new Error(`PostgreSQL did not start: ${(error as Error).message.split('\n')[0]}\n${logTail(log)}`, {
        cause: error,
      });
    }
  };
  const remove = () => {
    try {
      pgCtl(['-m', 'immediate', 'stop']);
    } catch {
      // already stopped (killed last, or never started)
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };
  try {
    if (process.getuid?.() === 0) execFileSync('chown', ['postgres', dir]);
    runAsOwner(path.join(bin, 'initdb'), ['-D', data, '-U', 'postgres', '-A', 'trust', '--no-sync']);
    start();
  } catch (error) {
    remove();
    throw error;
  }
  return {
    url: `postgresql://postgres@127.0.0.1:${port}/postgres`,
    version: execFileSync(path.join(bin, 'postgres'), ['--version'], { encoding: 'utf8' }).trim(),
    settings: 'default durability (fsync on, synchronous_commit on), shared_buffers default',
    dir,
    async kill() {
      await killProcessTree(Number(readFileSync(path.join(data, 'postmaster.pid'), 'utf8').split('\n')[0]));
      // The killed postmaster may stay a zombie for a while (reparented to an init that reaps
      // late), and PostgreSQL takes a lock file whose process exists as a running server.
      rmSync(path.join(data, 'postmaster.pid'), { force: true });
      rmSync(path.join(dir, `.s.PGSQL.${port}.lock`), { force: true });
    },
    start,
    remove,
  };
}
