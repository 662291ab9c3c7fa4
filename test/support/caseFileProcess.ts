/**
 * Starts the embedded case file as a process of its own (embeddedCaseFileProcess.ts) and waits
 * until it serves: node with tsx's loader, not the tsx wrapper, so a SIGKILL reaches PGlite itself.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { EMBEDDED_POOL_SIZE } from '../../case-file/pool';

const root = path.join(__dirname, '..', '..');

export interface CaseFileProcess {
  url: string;
  pid: number;
  /** Resolves with the first line of its output that starts with `prefix`; fails on its exit or after `timeoutMs`. */
  line(prefix: string, timeoutMs?: number): Promise<string>;
  /** SIGKILL, and wait until it is gone. */
  kill(): Promise<void>;
  /** SIGTERM (PGlite closed cleanly), and wait until it is gone. */
  stop(): Promise<void>;
}

/**
 * The stack's case-file option for a case file served by such a process (one connection at a time,
 * as PGlite serves).
 */
export const caseFileOptionOf = (caseFile: CaseFileProcess) => ({ url: caseFile.url, poolSize: EMBEDDED_POOL_SIZE });

export async function startCaseFileProcess(
  options: { dataDir?: string; port?: number; holdCommitAfter?: string; timeoutMs?: number } = {},
): Promise<CaseFileProcess> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    CASE_FILE_DATA_DIR: options.dataDir ?? '',
    CASE_FILE_PORT: String(options.port ?? 0),
    HOLD_COMMIT_AFTER: options.holdCommitAfter ?? '',
  };
  const child: ChildProcess = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(root, 'test/support/embeddedCaseFileProcess.ts')],
    { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const seen: string[] = [];
  let stderr = '';
  let exit: string | undefined;
  const wakers = new Set<() => void>();
  const wakeAll = () => wakers.forEach((wake) => wake());
  createInterface({ input: child.stdout! }).on('line', (text) => {
    seen.push(text);
    wakeAll();
  });
  child.stderr!.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4_000)));
  const exited = new Promise<void>((resolve) =>
    child.once('exit', (code, signal) => {
      exit = `exited with ${signal ?? code}`;
      wakeAll();
      resolve();
    }),
  );

  async function line(prefix: string, timeoutMs = 60_000): Promise<string> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = seen.find((text) => text.startsWith(prefix));
      if (found) return found;
      if (exit)
        throw new Error(
          `the embedded case file ${exit} before "${prefix}": ${stderr.trim().split('\n').slice(-3).join(' | ')}`,
        );
      if (Date.now() > deadline) throw new Error(`no "${prefix}" from the embedded case file within ${timeoutMs} ms`);
      await new Promise<void>((resolve) => {
        const wake = () => {
          clearTimeout(timer);
          wakers.delete(wake);
          resolve();
        };
        const timer = setTimeout(wake, deadline - Date.now());
        wakers.add(wake);
      });
    }
  }

  const end = async (signal: NodeJS.Signals) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    await exited;
  };
  try {
    const serving = await line('case file serving ', options.timeoutMs ?? 60_000);
    return {
      url: serving.slice('case file serving '.length),
      pid: child.pid ?? -1,
      line,
      kill: () => end('SIGKILL'),
      stop: () => end('SIGTERM'),
    };
  } catch (error) {
    await end('SIGKILL');
    throw error;
  }
}
