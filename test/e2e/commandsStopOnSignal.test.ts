/**
 * Long-running `journey` commands stop when asked: `watch` and the bulk retry, spawned as a user
 * runs them, end within a second of SIGINT or SIGTERM and leave no process behind, and `timeout 6
 * npx journey watch …` leaves none either. The journey they follow has no worker, so each command
 * is mid-call (a query, an Update) when the signal comes.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Client } from '@temporalio/client';
import { connectTemporalClient } from '../../client/temporalClient';
import { journeyWorkflowId, journeyWorkflowType } from '../../client/journeyMessages';
import { readPayloadKeys } from '../../codec/payloadKeys';
import { testCaseFileUrl, testTemporalConfig } from '../setup/testEnvironment';
import { newProcessMarker, processesLeftAfter, PROCESS_MARKER } from '../support/markedProcesses';
import { waitUntil } from '../support/waitUntil';

const root = path.resolve(__dirname, '../..');
const bin = path.join(root, 'cli/journeyBin.cjs');
const temporal = testTemporalConfig();
let client: Client;
let close: () => Promise<void>;
const started: string[] = [];

beforeAll(async () => {
  const connected = await connectTemporalClient(temporal, readPayloadKeys());
  client = connected.client;
  close = () => connected.connection.close();
});

afterAll(async () => {
  for (const workflowId of started)
    await client.workflow
      .getHandle(workflowId)
      .terminate('test over')
      .catch(() => {});
  await close();
});

/** A journey no worker serves: it stays running, and every query or Update to it waits. */
async function journeyWithoutWorker(): Promise<string> {
  const caseId = `stops-${randomUUID()}`;
  const workflowId = journeyWorkflowId(caseId);
  await client.workflow.start(journeyWorkflowType, { taskQueue: temporal.taskQueue, workflowId, args: [{}] });
  started.push(workflowId);
  return caseId;
}

interface Spawned {
  child: ChildProcess;
  marker: string;
  stderr: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>;
  /** Its stderr pipe closed too: a process it started may hold the pipe after it exits. */
  closed: Promise<void>;
}

function spawnMarked(command: string, args: string[], env: NodeJS.ProcessEnv = {}): Spawned {
  const marker = newProcessMarker();
  const child = spawn(command, args, {
    cwd: root,
    env: {
      ...process.env,
      ...env,
      [PROCESS_MARKER]: marker,
      TEMPORAL_ADDRESS: temporal.address,
      TEMPORAL_NAMESPACE: temporal.namespace,
      TEMPORAL_TASK_QUEUE: temporal.taskQueue,
      DATABASE_URL: testCaseFileUrl(),
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal, at: Date.now() })),
  );
  const closed = new Promise<void>((resolve) => child.once('close', () => resolve()));
  return { child, marker, stderr: () => stderr, exited, closed };
}

/** Sends `signal` once `ready` shows on stderr; answers how long the exit took and the exit code. */
async function stopWith(
  spawned: Spawned,
  ready: RegExp,
  signal: NodeJS.Signals,
): Promise<{ ms: number; code: number | null }> {
  await waitUntil(`the command is under way (${ready})`, () => ready.test(spawned.stderr()), { timeoutMs: 45_000 });
  const sent = Date.now();
  spawned.child.kill(signal);
  const { code, at } = await spawned.exited;
  return { ms: at - sent, code };
}

async function noneLeft(spawned: Spawned): Promise<void> {
  expect(await processesLeftAfter(spawned.marker, 1_000)).toEqual([]);
  await spawned.closed;
}

test.each([
  ['SIGINT', 130],
  ['SIGTERM', 143],
] as const)(
  'journey watch stops within a second on %s',
  async (signal, exitCode) => {
    const caseId = await journeyWithoutWorker();
    const watch = spawnMarked(process.execPath, [bin, 'watch', caseId]);
    const { ms, code } = await stopWith(watch, /following case\//, signal);
    expect({ code, withinASecond: ms < 1_000 }).toEqual({ code: exitCode, withinASecond: true });
    expect(watch.stderr()).toContain(`watch: stopped (${signal})`);
    await noneLeft(watch);
  },
  60_000,
);

test.each([
  ['SIGINT', 130],
  ['SIGTERM', 143],
] as const)(
  'the bulk retry stops within a second on %s, and says how to resume',
  async (signal, exitCode) => {
    const caseId = await journeyWithoutWorker();
    const workflowId = journeyWorkflowId(caseId);
    // Listed once visibility has it, so that the command reaches its Updates.
    await waitUntil('the journey is visible', async () => {
      for await (const execution of client.workflow.list({ query: `WorkflowId = '${workflowId}'` })) return execution;
      return undefined;
    });
    const retry = spawnMarked(process.execPath, [
      bin,
      'retry-step',
      '--where',
      `WorkflowId = '${workflowId}'`,
      '--step',
      'credit-report',
      '--reason',
      'signal test',
      '--yes',
    ]);
    const { ms, code } = await stopWith(retry, /re-run with --request-id bulk-/, signal);
    expect({ code, withinASecond: ms < 1_000 }).toEqual({ code: exitCode, withinASecond: true });
    await noneLeft(retry);
  },
  60_000,
);

test('`timeout 6 npx journey watch` leaves no process behind', async () => {
  // npx installs the project's own bin into its cache on first use, and a first use that timeout
  // cuts short leaves that cache entry broken for every later npx at the same path (npm answers
  // ENOENT, exit 254). So the run gets a cache of its own, warmed before the timed call.
  const npmCache = await mkdtemp(path.join(os.tmpdir(), 'npx-cache-'));
  try {
    const caseId = await journeyWithoutWorker();
    const warm = spawnMarked('npx', ['journey', '--help'], { npm_config_cache: npmCache });
    expect(await warm.exited).toMatchObject({ code: 0 });
    await warm.closed;
    const timed = spawnMarked('timeout', ['6', 'npx', 'journey', 'watch', caseId], { npm_config_cache: npmCache });
    const { code } = await timed.exited;
    // 124: timeout ended it (the watch would otherwise run until the journey ends).
    expect({ code, stderr: timed.stderr() }).toMatchObject({ code: 124 });
    await noneLeft(timed);
  } finally {
    await rm(npmCache, { recursive: true, force: true });
  }
}, 60_000);
