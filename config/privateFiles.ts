/**
 * Files and directories that hold deliveries, case data, keys or Temporal's state are the
 * running user's alone, wherever they are configured (not only while they sit in `.data/`):
 * directories 0700, files 0600, whatever the umask. An existing directory or file is tightened too.
 */
import { chmodSync, existsSync, mkdirSync } from 'node:fs';

export const PRIVATE_DIRECTORY_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

/** Creates `dir` (and missing parents) as 0700, or makes an existing one 0700. */
export function privateDirectory(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: PRIVATE_DIRECTORY_MODE });
  chmodSync(dir, PRIVATE_DIRECTORY_MODE);
}

/** Makes `file` 0600 when it exists (its content untouched); creates nothing. */
export function tightenFile(file: string): void {
  if (existsSync(file)) chmodSync(file, PRIVATE_FILE_MODE);
}

/**
 * A command line that runs under umask 077, so that every file the program creates is 0600 and
 * every directory 0700 (for a program that creates its own files, such as the Temporal CLI's
 * SQLite database and its -wal and -shm files). `exec` keeps the program's pid the child's.
 */
export function underPrivateUmask(command: string, args: readonly string[]): [string, string[]] {
  return ['/bin/sh', ['-c', 'umask 077 && exec "$0" "$@"', command, ...args]];
}
