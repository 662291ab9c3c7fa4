/**
 * A throwaway PostgreSQL cluster for a benchmark, started the way `.ci/store-tests-on-postgres`
 * starts one: Debian's server binaries, a cluster in a temporary directory on a free port, owned by
 * the `postgres` user when running as root (the server refuses to run as root). Never installs
 * anything: without the binaries it answers why it was skipped.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../cli/freePort';

export type ThrowawayPostgres = { url: string; version: string; settings: string; stop(): void } | { skipped: string };

const POSTGRES_LIB = '/usr/lib/postgresql';

function serverBin(): string | undefined {
  if (!existsSync(POSTGRES_LIB)) return undefined;
  const versions = readdirSync(POSTGRES_LIB)
    .filter((v) => existsSync(path.join(POSTGRES_LIB, v, 'bin', 'pg_ctl')))
    .sort((a, b) => Number(a) - Number(b));
  const latest = versions.at(-1);
  return latest === undefined ? undefined : path.join(POSTGRES_LIB, latest, 'bin');
}

export async function startThrowawayPostgres(): Promise<ThrowawayPostgres> {
  const bin = serverBin();
  if (!bin)
    return {
      skipped: `no PostgreSQL server binaries under ${POSTGRES_LIB} (Debian's postgresql package is not installed)`,
    };
  const asRoot = process.getuid?.() === 0;
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-pg-'));
  const port = await freePort();
  const run = (command: string, args: string[]) => {
    if (asRoot)
      execFileSync('su', ['postgres', '-s', '/bin/sh', '-c', [command, ...args].map((a) => `'${a}'`).join(' ')], {
        stdio: 'pipe',
      });
    else execFileSync(command, args, { stdio: 'pipe' });
  };
  const settings = 'default durability (fsync on, synchronous_commit on), shared_buffers default';
  try {
    if (asRoot) execFileSync('chown', ['postgres', dir]);
    run(path.join(bin, 'initdb'), ['-D', path.join(dir, 'data'), '-U', 'postgres', '-A', 'trust', '--no-sync']);
    run(path.join(bin, 'pg_ctl'), [
      '-D',
      path.join(dir, 'data'),
      '-l',
      path.join(dir, 'server.log'),
      '-w',
      '-o',
      `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1`,
      'start',
    ]);
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    return { skipped: `PostgreSQL could not be started: ${(error as Error).message.split('\n')[0]}` };
  }
  const version = execFileSync(path.join(bin, 'postgres'), ['--version'], { encoding: 'utf8' }).trim();
  return {
    url: `postgresql://postgres@127.0.0.1:${port}/postgres`,
    version,
    settings,
    stop() {
      try {
        run(path.join(bin, 'pg_ctl'), ['-D', path.join(dir, 'data'), '-m', 'immediate', 'stop']);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
