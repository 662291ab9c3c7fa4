/**
 * The embedded PGlite's data directory stays the running user's alone: directories 0700, files
 * 0600. PGlite (Emscripten's NODEFS) creates every file 0666 and chmods it so, whatever the umask,
 * so the modes are tightened once after start and every later create or chmod of this instance
 * drops the group and other bits before it reaches the disk.
 */
import { chmodSync, readdirSync } from 'node:fs';
import path from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import { PRIVATE_DIRECTORY_MODE, PRIVATE_FILE_MODE } from '../config/privateFiles';

const GROUP_AND_OTHER_BITS = 0o077;

/** Makes every directory under `dir` 0700 and every file 0600 (symbolic links are left as they are). */
export function tightenTree(dir: string): void {
  chmodSync(dir, PRIVATE_DIRECTORY_MODE);
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) tightenTree(full);
    else if (entry.isFile()) chmodSync(full, PRIVATE_FILE_MODE);
  }
}

interface ModeCalls {
  mknod(target: string, mode: number, dev: number): unknown;
  chmod(target: unknown, mode: number, dontFollow?: boolean): unknown;
  fchmod(fd: number, mode: number): unknown;
}

/** From now on, files and directories this PGlite creates or chmods are its user's only. */
export function keepCreatedFilesPrivate(db: PGlite): void {
  const fs = db.Module.FS as unknown as ModeCalls;
  const { mknod, chmod, fchmod } = fs;
  fs.mknod = (target, mode, dev) => mknod.call(fs, target, mode & ~GROUP_AND_OTHER_BITS, dev);
  fs.chmod = (target, mode, dontFollow) => chmod.call(fs, target, mode & ~GROUP_AND_OTHER_BITS, dontFollow);
  fs.fchmod = (fd, mode) => fchmod.call(fs, fd, mode & ~GROUP_AND_OTHER_BITS);
}
