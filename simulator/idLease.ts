/**
 * No id issued twice, whatever stopped the simulator. Every id is drawn from the seeded generator
 * (`store.random`), and the saved state holds the generator's position as of its last save; a draw
 * after that save (a job's new account, a webhook's delivery id, sent before the next save) would
 * be drawn again by a simulator restarted from that position, and its id given to another entity.
 *
 * So the generator leases its draws: before it passes the end of its lease it writes, synced, a
 * lease `LEASE_DRAWS` draws further on, and a restart resumes at the end of the last lease, past
 * every draw the stopped process may have made. A lease is one small write per `LEASE_DRAWS`
 * draws (a GUID takes 32).
 */
import { closeSync, existsSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, writeSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { ConfigurationError } from '../config/environment';
import type { SeededRandom } from './seededRandom';

export const LEASE_DRAWS = 1 << 16;

/** What one draw adds to the generator's position (mulberry32, seededRandom.ts). */
const STEP = 0x6d2b79f5;

const leaseSchema = z.object({ version: z.literal(1), end: z.number().int().min(0).max(0xffffffff) });

/** The lease file beside a state file. */
export const leaseFileOf = (stateFile: string): string => `${stateFile}.ids`;

/**
 * Makes `random` lease its draws in `file`: it first moves past the last lease there (a restart),
 * then writes a lease before each `LEASE_DRAWS` draws.
 */
export function leaseDraws(random: SeededRandom, file: string): void {
  const last = readLease(file);
  if (last !== undefined) random.position = last;
  let remaining = 0;
  const draw = random.next.bind(random);
  random.next = () => {
    if (remaining === 0) {
      writeLease(file, (random.position + Math.imul(LEASE_DRAWS, STEP)) >>> 0);
      remaining = LEASE_DRAWS;
    }
    remaining--;
    return draw();
  };
}

function readLease(file: string): number | undefined {
  if (!existsSync(file)) return undefined;
  let parsed: ReturnType<typeof leaseSchema.safeParse>;
  try {
    parsed = leaseSchema.safeParse(JSON.parse(readFileSync(file, 'utf8')));
  } catch {
    parsed = leaseSchema.safeParse(undefined);
  }
  if (!parsed.success)
    throw new ConfigurationError(
      `SIMULATOR_STATE_FILE: ${file} is not the simulator's id lease; move it away with the state file ` +
        `to start a fresh simulator`,
    );
  return parsed.data.end;
}

/**
 * Written to a temporary file, synced, renamed over the old one: a lease is whole or not there. The
 * first lease comes before the first save, so it makes the state file's folder.
 */
function writeLease(file: string, end: number): void {
  mkdirSync(path.dirname(file), { recursive: true });
  const temporary = `${file}.tmp`;
  const fd = openSync(temporary, 'w', 0o600);
  try {
    writeSync(fd, JSON.stringify({ version: 1, end }));
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(temporary, file);
}
