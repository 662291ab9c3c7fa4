/**
 * The deliveries the bridge keeps beside its spool, dead letters (`dead-letter/`) and files it could
 * not read back (`quarantine/`), hold event bodies with names. They are kept for a bounded time
 * (removeExpiredDeliveries, run by the bridge at start and every hour), and a case's are removed
 * when the case is purged (removeCaseDeliveries, called by `journey purge`).
 */
import { existsSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import type { Logger } from 'pino';
import { DEAD_LETTER_DIR } from './deadLetters';
import { fsyncDirectory } from './durableFile';
import { QUARANTINE_DIR } from './spool';

export interface RemovedDeliveries {
  deadLetters: number;
  quarantined: number;
}

/** An id shorter than this could match by chance (every provider and case id is a GUID). */
const MIN_ID_LENGTH = 8;

/** Removes the files of `dir` for which `expired` holds; answers how many. A missing dir holds none. */
function removeWhere(dir: string, expired: (file: string) => boolean): number {
  if (!existsSync(dir)) return 0;
  let removed = 0;
  for (const name of readdirSync(dir)) {
    const file = path.join(dir, name);
    if (!statSync(file).isFile() || !expired(file)) continue;
    rmSync(file, { force: true });
    removed++;
  }
  if (removed > 0) fsyncDirectory(dir);
  return removed;
}

/** When a kept file was written: a dead letter's id begins with its time; otherwise the file's. */
function writtenAt(file: string): number {
  const stamp = /^(\d{13})-[0-9a-f]{8}\.json$/.exec(path.basename(file))?.[1];
  return stamp === undefined ? statSync(file).mtimeMs : Number(stamp);
}

/** Dead letters and quarantined files written before `before`. */
export function removeExpiredDeliveries(spoolDir: string, before: Date): RemovedDeliveries {
  const older = (file: string) => writtenAt(file) < before.getTime();
  return {
    deadLetters: removeWhere(path.join(spoolDir, DEAD_LETTER_DIR), older),
    quarantined: removeWhere(path.join(spoolDir, QUARANTINE_DIR), older),
  };
}

/** A kept file's text and, when it holds a Base64 `body` (a spooled delivery, a dead letter), the body's. */
function textOf(file: string): string {
  const text = readFileSync(file, 'utf8');
  try {
    const body = (JSON.parse(text) as { body?: unknown }).body;
    return typeof body === 'string' ? `${text}\n${Buffer.from(body, 'base64').toString('utf8')}` : text;
  } catch {
    // Torn: the Base64 cannot be told apart; the bytes that are there are still searched.
    const body = /"body":"([A-Za-z0-9+/=]*)/.exec(text)?.[1];
    return body ? `${text}\n${Buffer.from(body, 'base64').toString('utf8')}` : text;
  }
}

/** Dead letters and quarantined files whose body names one of `ids` (a case's id, its people's, its provider ids). */
export function removeCaseDeliveries(spoolDir: string, ids: readonly string[]): RemovedDeliveries {
  const wanted = [...new Set(ids)].filter((id) => id.length >= MIN_ID_LENGTH);
  const names = (file: string) => {
    const text = textOf(file);
    return wanted.some((id) => text.includes(id));
  };
  if (wanted.length === 0) return { deadLetters: 0, quarantined: 0 };
  return {
    deadLetters: removeWhere(path.join(spoolDir, DEAD_LETTER_DIR), names),
    quarantined: removeWhere(path.join(spoolDir, QUARANTINE_DIR), names),
  };
}

const SWEEP_EVERY_MS = 60 * 60 * 1000;

/** Removes what is past `retentionMs` now and every hour after; answers the function that stops it. */
export function sweepKeptDeliveries(spoolDir: string, retentionMs: number, logger: Logger): () => void {
  const sweep = () => {
    try {
      const removed = removeExpiredDeliveries(spoolDir, new Date(Date.now() - retentionMs));
      if (removed.deadLetters + removed.quarantined > 0)
        logger.info(removed, 'removed dead letters and quarantined spool files past their retention');
    } catch (error) {
      logger.warn(
        { err: error instanceof Error ? error.message : String(error) },
        'could not remove expired kept deliveries',
      );
    }
  };
  sweep();
  const timer = setInterval(sweep, SWEEP_EVERY_MS);
  timer.unref();
  return () => clearInterval(timer);
}
