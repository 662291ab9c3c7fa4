/**
 * Files that are on disk before anyone is told so (DESIGN.md §6.1): every byte written (writeSync
 * may write fewer than asked, on a full disk say), fsynced, read back and compared before the
 * rename that makes the file visible, and the directory fsynced after it.
 */
import { closeSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, writeSync } from 'node:fs';
import path from 'node:path';

export class TornWriteError extends Error {
  override name = 'TornWriteError';
}

/** Writes until every byte is written; a call that makes no progress is an error, not a loop. */
function writeFully(fd: number, bytes: Buffer): void {
  let offset = 0;
  while (offset < bytes.length) {
    const written = writeSync(fd, bytes, offset, bytes.length - offset);
    if (written <= 0) throw new TornWriteError(`wrote ${offset} of ${bytes.length} bytes`);
    offset += written;
  }
}

export function fsyncDirectory(dir: string): void {
  const fd = openSync(dir, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** Writes `bytes` as `dir/name`, atomically and durably; throws (leaving no file) when it cannot. */
export function writeFileDurably(dir: string, name: string, bytes: Buffer): void {
  const target = path.join(dir, name);
  const tmp = `${target}.tmp`;
  try {
    const fd = openSync(tmp, 'w');
    try {
      writeFully(fd, bytes);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    // What the disk gives back is what gets renamed into place, or nothing is.
    if (!readFileSync(tmp).equals(bytes)) throw new TornWriteError(`${name}: the bytes read back differ from those written`);
    renameSync(tmp, target);
  } catch (error) {
    rmSync(tmp, { force: true });
    throw error;
  }
  fsyncDirectory(dir);
}

/** Moves a file to another directory (created when missing), durably in both. */
export function moveFileDurably(from: string, toDir: string): string {
  mkdirSync(toDir, { recursive: true });
  const to = path.join(toDir, path.basename(from));
  renameSync(from, to);
  fsyncDirectory(toDir);
  fsyncDirectory(path.dirname(from));
  return to;
}
