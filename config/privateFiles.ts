/**
 * Files and directories that hold deliveries, case data, keys or Temporal's state are the
 * running user's alone, wherever they are configured (not only while they sit in `.data/`):
 * directories 0700, files 0600, whatever the umask. An existing directory or file is tightened too.
 */
import { chmodSync, closeSync, mkdirSync, openSync } from 'node:fs';

export const PRIVATE_DIRECTORY_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

/** Creates `dir` (and missing parents) as 0700, or makes an existing one 0700. */
export function privateDirectory(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: PRIVATE_DIRECTORY_MODE });
  chmodSync(dir, PRIVATE_DIRECTORY_MODE);
}

/** Creates `file` empty as 0600 when missing, or makes an existing one 0600 (its content untouched). */
export function privateFile(file: string): void {
  closeSync(openSync(file, 'a', PRIVATE_FILE_MODE));
  chmodSync(file, PRIVATE_FILE_MODE);
}
