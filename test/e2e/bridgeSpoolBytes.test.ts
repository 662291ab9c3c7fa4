/**
 * What the bridge keeps on disk is bounded: the spool in bytes as well as in count (503 beyond,
 * nothing written), and dead letters and quarantined files, which hold event bodies with names,
 * only for their retention (removed when the bridge starts and every hour after).
 */
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, utimesSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import pino from 'pino';
import { readBridgeConfig } from '../../webhook-bridge/config';
import { DeadLetterStore } from '../../webhook-bridge/deadLetters';
import { QUARANTINE_DIR } from '../../webhook-bridge/spool';
import { startBridge, type RunningBridge } from '../../webhook-bridge/startBridge';
import { envelope, idvCompleted, post, sign } from '../support/deliveries';
import { testDirectory, testTemporalConfig } from '../setup/testEnvironment';

const SECRET = 'spool-bytes-secret';
const DAY_MS = 24 * 60 * 60 * 1000;
const bridges: RunningBridge[] = [];
afterAll(async () => {
  for (const bridge of bridges) await bridge.stop();
});

/** An address nothing listens on: Temporal is down, so deliveries go to the spool. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

async function bridgeOn(spoolDir: string, env: Record<string, string>): Promise<RunningBridge> {
  const config = { ...readBridgeConfig({ WEBHOOK_SECRET: SECRET, ...env }), port: 0, spoolDir };
  const temporal = { ...testTemporalConfig(), address: `127.0.0.1:${await closedPort()}` };
  const bridge = await startBridge(config, temporal, { logger: pino({ level: 'silent' }) });
  bridges.push(bridge);
  return bridge;
}

const delivery = (padding: number) =>
  envelope('IdentityVerification.Completed', { ...idvCompleted(randomUUID()), padding: 'x'.repeat(padding) });
const send = (bridge: RunningBridge, raw: string) =>
  post(bridge.url, raw, { 'x-hmac-sha256-signature': sign(raw, SECRET), 'x-batch-correlation-id': randomUUID() });
const spooled = (dir: string) => readdirSync(dir).filter((name) => /^\d{16}\.json$/.test(name)).length;

test('a spool over its byte limit answers 503 and writes nothing more', async () => {
  const spoolDir = testDirectory('spool-bytes');
  const bridge = await bridgeOn(spoolDir, {
    BRIDGE_SPOOL_MAX_BYTES: String(8 * 1024),
    BRIDGE_SIGNAL_TIMEOUT_MS: '200',
  });
  const statuses: number[] = [];
  for (let i = 0; i < 3; i++) statuses.push((await send(bridge, delivery(3000))).status);
  expect(statuses).toEqual([202, 202, 503]);
  expect(spooled(spoolDir)).toBe(2);
  // A small one still fits under the limit.
  expect((await send(bridge, delivery(0))).status).toBe(202);
  expect(spooled(spoolDir)).toBe(3);
});

test('dead letters and quarantined files past their retention are removed when the bridge starts', async () => {
  const spoolDir = testDirectory('spool-retention');
  const store = new DeadLetterStore(spoolDir);
  const refusal = { reason: 'invalid argument', grpcCode: 3 };
  const body = (padding: number) => Buffer.from(delivery(padding));
  const input = (padding: number) => ({
    receivedAt: new Date().toISOString(),
    batchId: null,
    body: body(padding),
    workflowIds: [],
  });
  const expired = store.put(input(1), refusal as never, new Date(Date.now() - 8 * DAY_MS));
  const kept = store.put(input(2), refusal as never, new Date(Date.now() - 1 * DAY_MS));
  const quarantine = path.join(spoolDir, QUARANTINE_DIR);
  mkdirSync(quarantine, { recursive: true });
  const oldFile = path.join(quarantine, '0000000000000001.json');
  const newFile = path.join(quarantine, '0000000000000002.json');
  writeFileSync(oldFile, '{"torn');
  writeFileSync(newFile, '{"torn');
  const eightDaysAgo = new Date(Date.now() - 8 * DAY_MS);
  utimesSync(oldFile, eightDaysAgo, eightDaysAgo);

  await bridgeOn(spoolDir, { BRIDGE_DEAD_LETTER_RETENTION_DAYS: '7' });
  expect(store.ids()).toEqual([kept.id]);
  expect(store.read(expired.id)).toBeUndefined();
  expect(existsSync(oldFile)).toBe(false);
  expect(existsSync(newFile)).toBe(true);
});
