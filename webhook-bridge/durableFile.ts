/**
 * Files that are on disk before anyone is told so (docs/architecture.md, "Nothing answered 2xx is
 * lost"): every byte written (writeSync may write fewer than asked, on a full disk say), fsynced,
 * read back and compared before the rename that makes the file visible, and the directory fsynced
 * after it. The file system calls come through `DurableFileSystem`, so that tests can make a write
 * or an fsync fail.
 */
import nodeFs from 'node:fs';
import { renameSync } from 'node:fs';
import path from 'node:path';
import { PRIVATE_FILE_MODE, privateDirectory } from '../config/privateFiles';

/** The calls a durable write makes; node:fs by default. */
export type DurableFileSystem = Pick<
  typeof nodeFs,
  'openSync' | 'writeSync' | 'fsyncSync' | 'closeSync' | 'readFileSync' | 'renameSync' | 'rmSync'
>;

export class TornWriteError extends Error {
  override name = 'TornWriteError';
}

/** Writes until every byte is written; a call that makes no progress is an error, not a loop. */
function writeFully(fs: DurableFileSystem, fd: number, bytes: Buffer): void {
  let offset = 0;
  while (offset < bytes.length) {
    const written = fs.writeSync(fd, bytes, offset, bytes.length - offset);
    if (written <= 0) throw new TornWriteError(`wrote ${offset} of ${bytes.length} bytes`);
    offset += written;
  }
}

export function fsyncDirectory(dir: string, fs: DurableFileSystem = nodeFs): void {
  const fd = fs.openSync(dir, 'r');
  try {
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

/** Writes `bytes` as `dir/name`, atomically and durably; throws (leaving no file) when it cannot. */
export function writeFileDurably(dir: string, name: string, bytes: Buffer, fs: DurableFileSystem = nodeFs): void {
  const target = path.join(dir, name);
  const tmp = `${target}.tmp`;
  try {
    const fd = fs.openSync(tmp, 'w', PRIVATE_FILE_MODE);
    try {
      writeFully(fs, fd, bytes);
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    // What the disk gives back is what gets renamed into place, or nothing is.
    if (!fs.readFileSync(tmp).equals(bytes))
      throw new TornWriteError(`${name}: the bytes read back differ from those written`);
    fs.renameSync(tmp, target);
  } catch (error) {
    fs.rmSync(tmp, { force: true });
    throw error;
  }
  fsyncDirectory(dir, fs);
}

/** Moves a file to another directory (created when missing), durably in both. */
export function moveFileDurably(from: string, toDir: string): string {
  privateDirectory(toDir);
  const to = path.join(toDir, path.basename(from));
  renameSync(from, to);
  fsyncDirectory(toDir);
  fsyncDirectory(path.dirname(from));
  return to;
}
