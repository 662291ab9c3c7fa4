/**
 * While the provider's secret is not known yet (WEBHOOK_SECRET_SOURCE=provider, the provider not
 * answering), the bridge holds signed deliveries to verify them later. Anyone can send one, so
 * what it holds is bounded in count and in bytes (503 beyond, nothing written), and a signature
 * header that cannot be a signature at all is refused at once instead of held.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { readdirSync } from 'node:fs';
import pino from 'pino';
import { readBridgeConfig } from '../../webhook-bridge/config';
import { startBridge, type RunningBridge } from '../../webhook-bridge/startBridge';
import { SIGNATURE_HEADER } from '../../webhook-bridge/verifySignature';
import { envelope, idvCompleted, post } from '../support/deliveries';
import { testDirectory, testTemporalConfig } from '../setup/testEnvironment';

const bridges: RunningBridge[] = [];
afterAll(async () => {
  for (const bridge of bridges) await bridge.stop();
});

/** A provider that never answers: the secret stays unknown for the whole test. */
const unreachableProvider = {
  baseUrl: 'http://127.0.0.1:1',
  authUrl: 'http://127.0.0.1:1/oauth',
  clientId: 'c',
  clientSecrets: ['s'],
  requestTimeoutMs: 200,
};

async function bridgeHolding(count: number, bytes: number): Promise<{ bridge: RunningBridge; spoolDir: string }> {
  const spoolDir = testDirectory('held-spool');
  const config = {
    ...readBridgeConfig({
      WEBHOOK_SECRET_SOURCE: 'provider',
      BRIDGE_HELD_LIMIT: String(count),
      BRIDGE_HELD_MAX_BYTES: String(bytes),
    }),
    port: 0,
    spoolDir,
  };
  const bridge = await startBridge(config, testTemporalConfig(), {
    provider: unreachableProvider,
    logger: pino({ level: 'silent' }),
    secretRetry: { initialMs: 60_000, maxMs: 60_000 },
  });
  bridges.push(bridge);
  return { bridge, spoolDir };
}

const wellFormedSignature = () => randomBytes(32).toString('base64');
const delivery = (padding = 0) =>
  envelope('IdentityVerification.Completed', { ...idvCompleted(randomUUID()), padding: 'x'.repeat(padding) });
const spooled = (dir: string) => readdirSync(dir).filter((name) => name.endsWith('.json')).length;

test('held deliveries are capped in count: beyond the limit 503, and nothing more is written', async () => {
  const { bridge, spoolDir } = await bridgeHolding(3, 1024 * 1024);
  const statuses: number[] = [];
  for (let i = 0; i < 5; i++)
    statuses.push((await post(bridge.url, delivery(), { [SIGNATURE_HEADER]: wellFormedSignature() })).status);
  expect(statuses).toEqual([202, 202, 202, 503, 503]);
  expect(spooled(spoolDir)).toBe(3);
});

test('held deliveries are capped in bytes', async () => {
  const { bridge, spoolDir } = await bridgeHolding(100, 8 * 1024);
  const statuses: number[] = [];
  for (let i = 0; i < 3; i++)
    statuses.push((await post(bridge.url, delivery(3000), { [SIGNATURE_HEADER]: wellFormedSignature() })).status);
  expect(statuses).toEqual([202, 202, 503]);
  expect(spooled(spoolDir)).toBe(2);
});

test('a signature header that is not Base64 of 32 bytes is refused, not held', async () => {
  const { bridge, spoolDir } = await bridgeHolding(100, 1024 * 1024);
  for (const header of ['anything', 'c2hvcnQ=', `${wellFormedSignature()}x`]) {
    expect((await post(bridge.url, delivery(), { [SIGNATURE_HEADER]: header })).status).toBe(401);
  }
  expect(spooled(spoolDir)).toBe(0);
});
