/**
 * Secrets as files: when a variable is unset (or empty), `<NAME>_FILE` names a file holding its
 * value, as Docker and Kubernetes secrets are mounted, so a secret need not sit in a process's
 * environment (which `docker inspect` and /proc/<pid>/environ show). One trailing newline is
 * dropped, since files written by `echo` end with one. The file's contents are never echoed.
 */
import { readFileSync } from 'node:fs';

export class SecretFileError extends Error {
  override name = 'SecretFileError';
}

/** `name`'s value: the variable when set, else the contents of the file `<name>_FILE` names. */
export function secretFromFile(name: string, env: NodeJS.ProcessEnv): string | undefined {
  const value = env[name];
  if (value) return value;
  const file = env[`${name}_FILE`];
  if (!file) return undefined;
  let contents: string;
  try {
    contents = readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'unreadable';
    throw new SecretFileError(`${name}_FILE: cannot read ${file} (${code})`);
  }
  return contents.replace(/\r?\n$/, '') || undefined;
}
