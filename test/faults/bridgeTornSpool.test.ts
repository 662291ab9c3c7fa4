/**
 * Fault suite: a torn file in the spool of a bridge process (`npm run bridge`'s main).
 * The process starts, moves the file to quarantine/, drains the good delivery behind it, stays up,
 * and stops cleanly on SIGTERM: an unreadable spool file never makes a start fail.
 */
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { freePort } from '../../cli/freePort';
import { resourceWorkflowId } from '../../provider';
import { routeSpooled } from '../../webhook-bridge/deliveryRecorder';
import { workflowIdsOf } from '../../webhook-bridge/routeDelivery';
import { Spool } from '../../webhook-bridge/spool';
import { envelope, idvCompleted } from '../support/deliveries';

const root = path.join(__dirname, '..', '..');

test('a torn spool file is quarantined; the bridge process stays up and drains the rest', async () => {
  const spoolDir = mkdtempSync(path.join(os.tmpdir(), 'bridge-torn-'));
  const spool = new Spool(spoolDir, { resourcesOf: (r) => workflowIdsOf(routeSpooled(r)) });
  const tornId = randomUUID();
  const goodId = randomUUID();
  for (const id of [tornId, goodId]) {
    spool.append({
      receivedAt: new Date().toISOString(),
      batchId: randomUUID(),
      body: Buffer.from(envelope('IdentityVerification.Completed', idvCompleted(id))).toString('base64'),
    });
  }
  const [torn] = spool.entries();
  writeFileSync(path.join(spoolDir, torn!.name), '{"seq":1,"receivedAt":"2026-11-21T');

  const port = await freePort();
  const child = spawn(path.join(root, 'node_modules', '.bin', 'tsx'), [path.join(root, 'webhook-bridge', 'main.ts')], {
    env: {
      ...process.env,
      TEMPORAL_ADDRESS: process.env.TEST_TEMPORAL_ADDRESS,
      TEMPORAL_TASK_QUEUE: `torn-${randomUUID()}`,
      BRIDGE_PORT: String(port),
      BRIDGE_SPOOL_DIR: spoolDir,
      WEBHOOK_SECRET: 'torn-secret',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let exitCode: number | null | undefined;
  const exited = new Promise<void>((resolve) =>
    child.once('exit', (code) => {
      exitCode = code;
      resolve();
    }),
  );
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));

  const connection = await Connection.connect({ address: process.env.TEST_TEMPORAL_ADDRESS ?? '' });
  try {
    const client = new Client({ connection });
    const deadline = Date.now() + 30_000;
    const arrived = async () =>
      client.workflow
        .getHandle(resourceWorkflowId({ kind: 'idv', id: goodId }))
        .describe()
        .then(
          () => true,
          () => false,
        );
    while (!(await arrived())) {
      if (exitCode !== undefined) throw new Error(`the bridge exited with ${exitCode}: ${output.slice(-500)}`);
      if (Date.now() > deadline) throw new Error(`the good delivery did not arrive: ${output.slice(-500)}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(readdirSync(path.join(spoolDir, 'quarantine'))).toEqual([torn!.name]);
    expect(readdirSync(spoolDir).filter((n) => n.endsWith('.json'))).toEqual([]);
    expect(output).toContain('unreadable spool file moved to quarantine/');
    const health = await fetch(`http://127.0.0.1:${port}/healthz`);
    expect(health.status).toBe(200);
    const metrics = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
    expect(metrics).toMatch(/bridge_spool_quarantined_total 1/);
    expect(exitCode).toBeUndefined();
  } finally {
    await connection.close();
    child.kill('SIGTERM');
    await exited;
  }
  expect(exitCode).toBe(0);
}, 60_000);
