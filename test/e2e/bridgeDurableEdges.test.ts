/**
 * The edges of the bridge's promise, "2xx only when durably recorded" (docs/architecture.md,
 * "Nothing answered 2xx is lost"), on real HTTP: while Temporal is unreachable a delivery is
 * spooled (202); one that cannot be written (a write or a file's fsync fails, or the bytes read
 * back differ) or that finds the spool full is answered 503, leaves nothing half-written behind,
 * and `/readyz` fails while the spool is full or cannot be written. Then a bridge on the same
 * spool with Temporal up drains exactly what was answered 202.
 */
import { randomUUID } from 'node:crypto';
import { readdirSync } from 'node:fs';
import net from 'node:net';
import { Client, Connection } from '@temporalio/client';
import pino from 'pino';
import { resourceWorkflowId } from '../../provider';
import type { TemporalConfig } from '../../config/temporalConfig';
import { readBridgeConfig } from '../../webhook-bridge/config';
import { startBridge, type BridgeOptions, type RunningBridge } from '../../webhook-bridge/startBridge';
import { testDirectory, testTemporalConfig } from '../setup/testEnvironment';
import { envelope, idvCompleted, post, sign } from '../support/deliveries';
import { failingFileSystem, type FileFailure } from '../support/failingFileSystem';
import { waitUntil } from '../support/waitUntil';

const SECRET = 'durable-edges-secret';
const temporal = testTemporalConfig();
const started: string[] = [];
let connection: Connection;
let client: Client;
let unreachable: TemporalConfig;

/** An address nothing listens on: Temporal is down. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

beforeAll(async () => {
  unreachable = { ...temporal, address: `127.0.0.1:${await closedPort()}` };
  connection = await Connection.connect({ address: temporal.address });
  client = new Client({ connection, namespace: temporal.namespace });
});

afterAll(async () => {
  await Promise.all(
    started.map((id) =>
      client.workflow
        .getHandle(id)
        .terminate('test over')
        .catch(() => undefined),
    ),
  );
  await connection?.close();
});

function bridgeOn(
  spoolDir: string,
  on: TemporalConfig,
  options: BridgeOptions & { spoolLimit?: number } = {},
): Promise<RunningBridge> {
  const env = {
    WEBHOOK_SECRET: SECRET,
    BRIDGE_SPOOL_LIMIT: String(options.spoolLimit ?? 100),
    BRIDGE_SIGNAL_TIMEOUT_MS: '500',
  };
  const config = { ...readBridgeConfig(env), port: 0, spoolDir };
  return startBridge(config, on, {
    logger: pino({ level: 'silent' }),
    backoff: { initialMs: 50, maxMs: 200 },
    ...options,
  });
}

/** Posts a signed delivery for a fresh IDV request; its resource workflow's id and the answer's status. */
async function deliver(bridge: RunningBridge): Promise<{ workflowId: string; status: number }> {
  const requestId = `edge-${randomUUID()}`;
  const raw = envelope('IdentityVerification.Completed', idvCompleted(requestId));
  const response = await post(bridge.url, raw, {
    'x-hmac-sha256-signature': sign(raw, SECRET),
    'x-batch-correlation-id': randomUUID(),
  });
  const workflowId = resourceWorkflowId({ kind: 'idv', id: requestId });
  started.push(workflowId);
  return { workflowId, status: response.status };
}

/** The spool's delivery files and leftovers (not its dead-letter or quarantine folders). */
const spoolFiles = (dir: string) => readdirSync(dir).filter((name) => /\.(json|tmp)$/.test(name));

async function signalsTo(workflowId: string): Promise<number> {
  const history = await client.workflow.getHandle(workflowId).fetchHistory();
  return (history.events ?? []).filter((e) => e.workflowExecutionSignaledEventAttributes).length;
}

const exists = (workflowId: string) =>
  client.workflow
    .getHandle(workflowId)
    .describe()
    .then(
      () => true,
      () => false,
    );

/** A bridge with Temporal up on the same spool: what it drains, and that the spool ends empty. */
async function drainWithTemporalUp(spoolDir: string, accepted: string[], refused: string[]): Promise<void> {
  const drainer = await bridgeOn(spoolDir, temporal);
  try {
    await waitUntil(
      `the drain of ${accepted.length} spooled deliveries`,
      async () => drainer.recorder.spoolDepth === 0 && (await Promise.all(accepted.map(exists))).every(Boolean),
    );
    for (const id of accepted) expect(await signalsTo(id)).toBe(1);
    for (const id of refused) expect(await exists(id)).toBe(false);
    expect(spoolFiles(spoolDir)).toEqual([]);
    expect(readdirSync(spoolDir)).not.toContain('quarantine');
    const ready = await fetch(new URL('/readyz', drainer.url));
    expect(ready.status).toBe(200);
  } finally {
    await drainer.stop();
  }
}

const failures: [string, FileFailure][] = [
  ['a write fails (disk full)', 'write'],
  ["the file's fsync fails", 'fsync'],
  ['the bytes read back differ', 'read-back'],
];

test.each(failures)(
  '%s: 503, nothing half-written, and the drain delivers only what was answered 202',
  async (_name, failure) => {
    const spoolDir = testDirectory(`spool-${failure}`);
    const fileSystem = failingFileSystem();
    const bridge = await bridgeOn(spoolDir, unreachable, { spoolFileSystem: fileSystem });
    let accepted: { workflowId: string; status: number };
    let refused: { workflowId: string; status: number };
    try {
      accepted = await deliver(bridge);
      expect(accepted.status).toBe(202);
      fileSystem.fail(failure);
      refused = await deliver(bridge);
      expect(refused.status).toBe(503);
      // Not ready while the spool cannot take a delivery, whatever Temporal does.
      const ready = await fetch(new URL('/readyz', bridge.url));
      expect({ status: ready.status, body: await ready.json() }).toMatchObject({
        status: 503,
        body: { ready: false, spool_writable: false },
      });
      expect(spoolFiles(spoolDir)).toHaveLength(1);
      expect(bridge.recorder.spoolDepth).toBe(1);
    } finally {
      await bridge.stop();
    }
    await drainWithTemporalUp(spoolDir, [accepted.workflowId], [refused.workflowId]);
  },
);

test('a full spool (BRIDGE_SPOOL_LIMIT) answers 503 and fails /readyz; the drain delivers what it holds', async () => {
  const spoolDir = testDirectory('spool-full');
  const bridge = await bridgeOn(spoolDir, unreachable, { spoolLimit: 2 });
  const accepted: string[] = [];
  let refused: { workflowId: string; status: number };
  try {
    for (let i = 0; i < 2; i++) {
      const delivery = await deliver(bridge);
      expect(delivery.status).toBe(202);
      accepted.push(delivery.workflowId);
    }
    refused = await deliver(bridge);
    expect(refused.status).toBe(503);
    const ready = await fetch(new URL('/readyz', bridge.url));
    expect({ status: ready.status, body: await ready.json() }).toMatchObject({
      status: 503,
      body: { ready: false, spool_depth: 2, spool_full: true, spool_writable: true },
    });
    expect(spoolFiles(spoolDir)).toHaveLength(2);
  } finally {
    await bridge.stop();
  }
  await drainWithTemporalUp(spoolDir, accepted, [refused.workflowId]);
});
