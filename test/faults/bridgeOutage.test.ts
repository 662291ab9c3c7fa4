/**
 * Temporal down: 200 signed deliveries are answered 2xx from the spool, and the bridge stays ready
 * (`/readyz` 200, saying Temporal does not answer); the bridge restarts in between; once Temporal
 * is back every delivery reaches its resource workflow exactly once (counted as signal events in
 * each workflow's history, so not even a deduped duplicate).
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client, Connection } from '@temporalio/client';
import pino from 'pino';
import { dataConverterFor } from '../../codec/dataConverter';
import { readPayloadKeys } from '../../codec/payloadKeys';
import { startDevServer, type DevServer } from '../../cli/devServer';
import { freePort } from '../../cli/freePort';
import { resolveTemporalCli } from '../../cli/temporalCli';
import { readBridgeConfig, type BridgeConfig } from '../../webhook-bridge/config';
import { startBridge, type RunningBridge } from '../../webhook-bridge/startBridge';
import { envelope, idvCompleted, post, sign } from '../support/deliveries';
import { waitUntil } from '../support/waitUntil';

const SECRET = 'outage-secret';
const DELIVERIES = 200;
const dir = mkdtempSync(path.join(os.tmpdir(), 'bridge-outage-'));
let server: DevServer | undefined;
let bridge: RunningBridge | undefined;

afterAll(async () => {
  await bridge?.stop();
  await server?.stop();
});

test('deliveries accepted during an outage reach Temporal exactly once after it returns', async () => {
  const cliPath = await resolveTemporalCli();
  const port = await freePort();
  const startServer = () => startDevServer({ cliPath, port, logFile: path.join(dir, 'server.log') });
  const temporal = { address: `127.0.0.1:${port}`, namespace: 'default', taskQueue: `outage-${randomUUID()}` };
  const config: BridgeConfig = {
    ...readBridgeConfig({ WEBHOOK_SECRET: SECRET }),
    port: 0,
    spoolDir: path.join(dir, 'spool'),
    signalTimeoutMs: 1_000,
  };
  const logger = pino({ level: 'silent' });
  const backoff = { initialMs: 100, maxMs: 1_000 };

  server = await startServer();
  bridge = await startBridge(config, temporal, { logger, backoff });
  await server.stop();

  const requestIds = Array.from({ length: DELIVERIES }, () => randomUUID());
  for (const requestId of requestIds) {
    const raw = envelope('IdentityVerification.Completed', idvCompleted(requestId));
    const response = await post(bridge.url, raw, {
      'x-hmac-sha256-signature': sign(raw, SECRET),
      'x-batch-correlation-id': randomUUID(),
    });
    expect(response.status).toBe(202);
  }
  expect(bridge.recorder.spoolDepth).toBe(DELIVERIES);
  // Still ready (it spools), and it says Temporal does not answer.
  const readyz = bridge.url.replace('/webhooks', '/readyz');
  await waitUntil('/readyz to say Temporal does not answer', async () => {
    const ready = await fetch(readyz);
    expect(ready.status).toBe(200);
    return ((await ready.json()) as { temporal: string }).temporal === 'unreachable';
  });

  // The bridge restarts while Temporal is still down: the spool is on disk.
  await bridge.stop();
  bridge = await startBridge(config, temporal, { logger, backoff });
  expect(bridge.recorder.spoolDepth).toBe(DELIVERIES);

  server = await startServer();
  await bridge.recorder.drained();
  expect(bridge.recorder.spoolDepth).toBe(0);

  const connection = await Connection.connect({ address: temporal.address });
  try {
    const client = new Client({ connection, dataConverter: dataConverterFor(readPayloadKeys()) });
    for (const requestId of requestIds) {
      const history = await client.workflow.getHandle(`resource/idv/${requestId}`).fetchHistory();
      const signals = (history.events ?? []).filter((e) => e.workflowExecutionSignaledEventAttributes);
      expect(signals).toHaveLength(1);
    }
  } finally {
    await connection.close();
  }
}, 180_000);
