/**
 * Fault suite: a bridge process SIGKILLed with a non-empty spool. Deliveries answered 202
 * while Temporal was unreachable survive the kill; a new bridge process on the same spool hands each
 * to Temporal exactly once.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { freePort } from '../../cli/freePort';
import { resourceWorkflowId } from '../../provider';
import { envelope, idvCompleted, post, sign } from '../support/deliveries';

const root = path.join(__dirname, '..', '..');
const SECRET = 'killed-secret';
const DELIVERIES = 40;
const children: ChildProcess[] = [];

afterAll(() => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});

/** `npm run bridge`'s main as a process of its own; resolves once it listens. */
async function bridgeProcess(
  env: Record<string, string>,
): Promise<{ child: ChildProcess; url: string; exited: Promise<void> }> {
  const port = await freePort();
  // node itself with tsx's loader, not the tsx wrapper: SIGKILL must reach the bridge, not a parent.
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'webhook-bridge', 'main.ts')], {
    cwd: root,
    env: { ...process.env, ...env, BRIDGE_PORT: String(port), WEBHOOK_SECRET: SECRET, BRIDGE_SIGNAL_TIMEOUT_MS: '500' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let output = '';
  await new Promise<void>((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('bridge listening')) resolve();
    });
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    void exited.then(() => reject(new Error(`the bridge exited before listening: ${output.slice(-500)}`)));
  });
  return { child, url: `http://127.0.0.1:${port}/webhooks`, exited };
}

test('deliveries spooled before a SIGKILL reach Temporal exactly once after a restart', async () => {
  const spoolDir = mkdtempSync(path.join(os.tmpdir(), 'bridge-killed-'));
  const taskQueue = `killed-${randomUUID()}`;
  const unreachable = `127.0.0.1:${await freePort()}`;
  const first = await bridgeProcess({
    TEMPORAL_ADDRESS: unreachable,
    TEMPORAL_TASK_QUEUE: taskQueue,
    BRIDGE_SPOOL_DIR: spoolDir,
  });
  const ids = Array.from({ length: DELIVERIES }, () => randomUUID());
  for (const id of ids) {
    const raw = envelope('IdentityVerification.Completed', idvCompleted(id));
    expect(
      (
        await post(first.url, raw, {
          'x-hmac-sha256-signature': sign(raw, SECRET),
          'x-batch-correlation-id': randomUUID(),
        })
      ).status,
    ).toBe(202);
  }
  first.child.kill('SIGKILL');
  await first.exited;

  const second = await bridgeProcess({
    TEMPORAL_ADDRESS: process.env.TEST_TEMPORAL_ADDRESS ?? '',
    TEMPORAL_TASK_QUEUE: taskQueue,
    BRIDGE_SPOOL_DIR: spoolDir,
  });
  const connection = await Connection.connect({ address: process.env.TEST_TEMPORAL_ADDRESS ?? '' });
  try {
    const client = new Client({ connection });
    const signals = async (id: string) =>
      client.workflow
        .getHandle(resourceWorkflowId({ kind: 'idv', id }))
        .fetchHistory()
        .then(
          (h) => (h.events ?? []).filter((e) => e.workflowExecutionSignaledEventAttributes).length,
          () => 0,
        );
    const deadline = Date.now() + 30_000;
    while ((await signals(ids.at(-1)!)) === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
    for (const id of ids) expect(await signals(id)).toBe(1);
  } finally {
    await connection.close();
    second.child.kill('SIGTERM');
    await second.exited;
  }
}, 90_000);
