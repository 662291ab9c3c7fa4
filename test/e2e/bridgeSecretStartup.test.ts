/**
 * A bridge starting before its secret is known, with the real simulator and a real Temporal dev
 * server: a bridge reading its secret from a provider that answers 503 starts anyway, keeps the
 * signed deliveries it cannot verify yet, and once the provider answers signals the genuine ones
 * and drops the forged one.
 */
import { randomUUID } from 'node:crypto';
import { Client, Connection } from '@temporalio/client';
import pino from 'pino';
import { ProviderClient } from '../../activities/providerClient';
import { webhookManagement } from '../../activities/webhookManagement';
import { resourceWorkflowId } from '../../provider';
import { startSimulator, type RunningSimulator } from '../../simulator/startSimulator';
import { readBridgeConfig } from '../../webhook-bridge/config';
import { startBridge, type RunningBridge } from '../../webhook-bridge/startBridge';
import { envelope, idvCompleted, post, sign } from '../support/deliveries';
import { simulatorControl } from '../support/faultHarness/rawProviderApi';
import { testDirectory, testTemporalConfig } from '../setup/testEnvironment';

const temporal = testTemporalConfig();
let sim: RunningSimulator;
let bridge: RunningBridge | undefined;
let connection: Connection;

beforeAll(async () => {
  sim = await startSimulator({
    port: 0,
    clientId: 'c',
    clientSecret: 's',
    seed: 11,
    tokenLifetimeSeconds: 3600,
    allowInsecureLoopbackCallbacks: true,
    processingDelayMs: 0,
  });
  connection = await Connection.connect({ address: temporal.address });
});

afterAll(async () => {
  await bridge?.stop();
  await sim?.stop();
  await connection?.close();
});

async function signalsTo(workflowId: string): Promise<number> {
  try {
    const history = await new Client({ connection }).workflow.getHandle(workflowId).fetchHistory();
    return (history.events ?? []).filter((e) => e.workflowExecutionSignaledEventAttributes).length;
  } catch {
    return 0;
  }
}

async function until(condition: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('condition not met within 15 s');
    await new Promise((r) => setTimeout(r, 100));
  }
}

test('a provider down at start delays verification, never refuses or loses a delivery', async () => {
  const provider = {
    baseUrl: sim.baseUrl,
    authUrl: sim.authUrl,
    clientId: 'c',
    clientSecrets: ['s'],
    requestTimeoutMs: 5_000,
  };
  const secret = (await webhookManagement(new ProviderClient(provider)).createSecret()).secret;
  const control = simulatorControl(sim);
  await control('/fault-rates', { api_5xx_rate: 1 }, 'PUT');

  const config = {
    ...readBridgeConfig({ WEBHOOK_SECRET_SOURCE: 'provider' }),
    port: 0,
    spoolDir: testDirectory('spool'),
  };
  bridge = await startBridge(config, temporal, {
    provider,
    logger: pino({ level: 'silent' }),
    backoff: { initialMs: 50, maxMs: 200 },
    secretRetry: { initialMs: 50, maxMs: 200 },
  });
  const running = bridge;
  expect(running.secrets.known).toBe(false);

  const genuineId = randomUUID();
  const forgedId = randomUUID();
  const genuine = envelope('IdentityVerification.Completed', idvCompleted(genuineId));
  const forged = envelope('IdentityVerification.Completed', idvCompleted(forgedId));
  const send = (raw: string, key: string) =>
    post(running.url, raw, { 'x-hmac-sha256-signature': sign(raw, key), 'x-batch-correlation-id': randomUUID() });
  expect((await send(genuine, secret)).status).toBe(202);
  expect((await send(forged, 'not-the-secret')).status).toBe(202);
  expect(running.recorder.spoolDepth).toBe(2);
  expect(await running.metrics.registry.metrics()).toMatch(/bridge_webhook_secret_known 0/);
  // Unsigned deliveries are still refused: they could never be verified.
  expect((await post(running.url, genuine, {})).status).toBe(401);

  await control('/fault-rates', { api_5xx_rate: 0 }, 'PUT');
  await until(async () => running.recorder.spoolDepth === 0);
  expect(await signalsTo(resourceWorkflowId({ kind: 'idv', id: genuineId }))).toBe(1);
  expect(await signalsTo(resourceWorkflowId({ kind: 'idv', id: forgedId }))).toBe(0);
  const metrics = await running.metrics.registry.metrics();
  expect(metrics).toMatch(/bridge_tampered_total 1/);
  expect(metrics).toMatch(/bridge_webhook_secret_known 1/);
  expect(metrics).toMatch(/bridge_deliveries_total\{outcome="held",event_type="IdentityVerification.Completed"\} 2/);
});
