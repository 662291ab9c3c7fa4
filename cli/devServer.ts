/**
 * Starts the Temporal CLI dev server, registers the project's search attributes, waits until it
 * answers, and stops it cleanly. `npm start` keeps its data in a SQLite file so a restart resumes
 * open journeys; tests leave `dbFile` unset for a throwaway in-memory server.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { privateDirectory, tightenFile, underPrivateUmask } from '../config/privateFiles';
import { Connection } from '@temporalio/client';
import { searchAttributeRegistrations } from '../client/searchAttributes';
import { freePort } from './freePort';

export interface DevServerOptions {
  cliPath: string;
  /** gRPC port; a free one is picked when unset. */
  port?: number;
  /** Web UI port; the UI is off (headless) when unset. */
  uiPort?: number;
  /**
   * Port of the server's Prometheus `/metrics` (its calls by operation, `service_requests`); the
   * CLI picks a random one when unset.
   */
  metricsPort?: number;
  /** The Web UI's remote codec endpoint (the codec server), so the UI shows decoded payloads. */
  codecEndpoint?: string;
  /** SQLite file for persistence; in-memory when unset. */
  dbFile?: string;
  namespace?: string;
  /** More namespaces to create beside `namespace` (tests give suites that need isolation their own). */
  extraNamespaces?: readonly string[];
  /** Where the server's own output goes. */
  logFile: string;
  startupTimeoutMs?: number;
}

export interface DevServer {
  address: string;
  namespace: string;
  uiUrl?: string;
  /** The Prometheus endpoint, when `metricsPort` was set. */
  metricsUrl?: string;
  pid: number;
  /** SIGTERM, then SIGKILL after `graceMs` (10 s unless told): SQLite keeps what was committed either way. */
  stop(graceMs?: number): Promise<void>;
}

export async function startDevServer(options: DevServerOptions): Promise<DevServer> {
  const port = options.port ?? (await freePort());
  const namespace = options.namespace ?? 'default';
  const address = `127.0.0.1:${port}`;
  const args = ['server', 'start-dev', '--ip', '127.0.0.1', '--port', String(port), '--log-level', 'warn'];
  const namespaces = [...new Set([namespace, ...(options.extraNamespaces ?? [])])];
  for (const name of namespaces) args.push('--namespace', name);
  if (options.uiPort) args.push('--ui-port', String(options.uiPort), '--ui-disable-news-fetch');
  else args.push('--headless');
  if (options.metricsPort) args.push('--metrics-port', String(options.metricsPort));
  const presets = options.uiPort && options.codecEndpoint ? uiCodecPresets(options.codecEndpoint) : undefined;
  if (presets) args.push('--env-file', presets.file, '--env', PRESETS_ENV);
  if (options.dbFile) {
    privateDirectory(path.dirname(options.dbFile));
    // A database an earlier release left 0644; a new one is created under umask 077 (spawnServer).
    tightenFile(options.dbFile);
    args.push('--db-filename', options.dbFile);
  }
  for (const [name, type] of Object.entries(searchAttributeRegistrations)) {
    args.push('--search-attribute', `${name}=${type}`);
  }

  mkdirSync(path.dirname(options.logFile), { recursive: true });
  for (let attempt = 1; ; attempt++) {
    const child = spawnServer(options.cliPath, args, options.logFile);
    try {
      await waitUntilServing(address, namespaces, child.exited, options.startupTimeoutMs ?? 60_000);
      return {
        address,
        namespace,
        uiUrl: options.uiPort ? `http://127.0.0.1:${options.uiPort}` : undefined,
        metricsUrl: options.metricsPort ? `http://127.0.0.1:${options.metricsPort}/metrics` : undefined,
        pid: child.process.pid ?? -1,
        stop: async (graceMs?: number) => {
          await stopChild(child.process, child.exited, graceMs);
          presets?.remove();
        },
      };
    } catch (error) {
      child.process.kill('SIGKILL');
      await child.exited;
      if (attempt >= START_ATTEMPTS || !(error instanceof ExitedAtStart)) presets?.remove();
      // A server that died at start on a port that was free a moment before (taken in between
      // by some connection's local end) gets another go; a timeout or a third death is final.
      if (error instanceof ExitedAtStart && attempt < START_ATTEMPTS) continue;
      throw new Error(`${(error as Error).message}\n${logExcerpt(options.logFile)}`, { cause: error });
    }
  }
}

const START_ATTEMPTS = 3;

/** The Temporal CLI environment the dev server's own settings are read from. */
const PRESETS_ENV = 'verification-journeys';

/**
 * The Web UI's codec endpoint carries the UI's codec token in its path (the dev server's UI has
 * no login, so no access token to pass): as a flag it would be on the server's command line, which
 * every local user reads with `ps`. It goes in a Temporal CLI environment file instead (`temporal
 * env`: presets for any flag), 0600 in a 0700 directory of its own, removed when the server stops.
 */
function uiCodecPresets(codecEndpoint: string): { file: string; remove: () => void } {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'temporal-dev-env-'));
  const file = path.join(dir, 'env.yaml');
  // JSON strings are YAML strings: the endpoint needs no escaping of its own.
  writeFileSync(file, `env:\n  ${PRESETS_ENV}:\n    ui-codec-endpoint: ${JSON.stringify(codecEndpoint)}\n`, {
    mode: 0o600,
  });
  return { file, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

class ExitedAtStart extends Error {}

function spawnServer(
  cliPath: string,
  args: string[],
  logFile: string,
): { process: ChildProcess; exited: Promise<number | null> } {
  const log = createWriteStream(logFile, { flags: 'a' });
  const child = spawn(...underPrivateUmask(cliPath, args), { stdio: ['ignore', 'pipe', 'pipe'] });
  // Two sources, one file: neither may end it (the first to finish would, and the other's last
  // lines would then be written after its end); it ends once both are closed.
  child.stdout.pipe(log, { end: false });
  child.stderr.pipe(log, { end: false });
  child.once('close', () => log.end());
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const spawned = { process: child, exited };
  running.add(spawned);
  void exited.then(() => running.delete(spawned));
  return spawned;
}

/** Every server this process started and that has not exited yet, whether its start finished or not. */
const running = new Set<{ process: ChildProcess; exited: Promise<number | null> }>();

/**
 * Stops every server this process started, a starting one too (whose `DevServer` its caller does not
 * hold yet): what a process being stopped by a signal runs last, so that no server outlives it.
 */
export async function stopDevServers(graceMs: number): Promise<void> {
  await Promise.all([...running].map((server) => stopChild(server.process, server.exited, graceMs)));
}

/** Polls the frontend until it answers for every namespace, or the process dies, or time runs out. */
async function waitUntilServing(
  address: string,
  namespaces: readonly string[],
  exited: Promise<number | null>,
  timeoutMs: number,
): Promise<void> {
  let exitCode: number | null | undefined;
  void exited.then((code) => (exitCode = code));
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  while (Date.now() < deadline) {
    if (exitCode !== undefined) throw new ExitedAtStart(`temporal server start-dev exited with code ${exitCode}`);
    try {
      const connection = await Connection.connect({ address, connectTimeout: 1_000 });
      try {
        for (const namespace of namespaces) await connection.workflowService.describeNamespace({ namespace });
        return;
      } finally {
        await connection.close();
      }
    } catch (error) {
      lastError = error;
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  throw new Error(`Temporal dev server at ${address} did not answer within ${timeoutMs} ms: ${String(lastError)}`);
}

async function stopChild(child: ChildProcess, exited: Promise<number | null>, graceMs = 10_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill(graceMs > 0 ? 'SIGTERM' : 'SIGKILL');
  const killTimer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  await exited;
  clearTimeout(killTimer);
}

/**
 * What the server's log says about its death: the first line of a Go panic or an `Error:` line
 * (the cause, which a goroutine dump pushes far above the tail) and the last lines.
 */
export function logExcerpt(file: string, lines = 20): string {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return `(no log at ${file})`;
  }
  const all = text.split('\n');
  const cause = all.findIndex((line) => /^(panic: |fatal error: |Error: )/.test(line));
  const tail = all.slice(-lines);
  const head = cause >= 0 && cause < all.length - lines ? [...all.slice(cause, cause + 5), '\t...'] : [];
  return `Last lines of ${file}:\n${[...head, ...tail].join('\n')}`;
}
