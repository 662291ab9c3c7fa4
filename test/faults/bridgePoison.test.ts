/**
 * Fault suite: poison deliveries among good ones while Temporal is down. Everything is
 * answered 202 from the spool; once Temporal is back, every good delivery reaches its resource
 * workflow exactly once, the poison ones (over the server's payload limit) are in the dead-letter
 * store, and none of them held up the others.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client, Connection } from '@temporalio/client';
import pino from 'pino';
import { startDevServer, type DevServer } from '../../cli/devServer';
import { freePort } from '../../cli/freePort';
import { resolveTemporalCli } from '../../cli/temporalCli';
import { resourceWorkflowId } from '../../provider';
import { readBridgeConfig, type BridgeConfig } from '../../webhook-bridge/config';
import { startBridge, type RunningBridge } from '../../webhook-bridge/startBridge';
import { deliverSignals } from '../support/signalsReceived';
import { envelope, idvCompleted, post, sign } from '../support/deliveries';

const SECRET = 'poison-secret';
const GOOD = 60;
const dir = mkdtempSync(path.join(os.tmpdir(), 'bridge-poison-'));
let server: DevServer | undefined;
let bridge: RunningBridge | undefined;

afterAll(async () => {
  await bridge?.stop();
  await server?.stop();
});

test('poison deliveries spooled among good ones are dead-lettered; the good ones all arrive once', async () => {
  const cliPath = await resolveTemporalCli();
  const port = await freePort();
  const startServer = () => startDevServer({ cliPath, port, logFile: path.join(dir, 'server.log') });
  const temporal = { address: `127.0.0.1:${port}`, namespace: 'default', taskQueue: `poison-${randomUUID()}` };
  const config: BridgeConfig = {
    ...readBridgeConfig({ WEBHOOK_SECRET: SECRET, BRIDGE_MAX_BODY: String(4 * 1024 * 1024) }),
    port: 0,
    spoolDir: path.join(dir, 'spool'),
    signalTimeoutMs: 1_000,
  };
  server = await startServer();
  bridge = await startBridge(config, temporal, {
    logger: pino({ level: 'silent' }),
    backoff: { initialMs: 100, maxMs: 1_000 },
  });
  await server.stop();

  const send = (raw: string) =>
    post(bridge!.url, raw, { 'x-hmac-sha256-signature': sign(raw, SECRET), 'x-batch-correlation-id': randomUUID() });
  const good: string[] = [];
  const poison: string[] = [];
  for (let i = 0; i < GOOD; i++) {
    if (i % 20 === 0) {
      const id = randomUUID();
      poison.push(id);
      expect(
        (
          await send(
            envelope('IdentityVerification.Completed', { ...idvCompleted(id), padding: 'p'.repeat(2_200_000) }),
          )
        ).status,
      ).toBe(202);
    }
    const id = randomUUID();
    good.push(id);
    expect((await send(envelope('IdentityVerification.Completed', idvCompleted(id)))).status).toBe(202);
  }
  expect(bridge.recorder.spoolDepth).toBe(GOOD + poison.length);

  server = await startServer();
  await bridge.recorder.drained();
  expect(bridge.recorder.spoolDepth).toBe(0);
  expect(
    bridge.deadLetters
      .list()
      .map((l) => l.workflowIds[0])
      .sort(),
  ).toEqual(poison.map((id) => resourceWorkflowId({ kind: 'idv', id })).sort());

  const connection = await Connection.connect({ address: temporal.address });
  try {
    const client = new Client({ connection });
    for (const id of good) expect(await deliverSignals(client, resourceWorkflowId({ kind: 'idv', id }))).toBe(1);
  } finally {
    await connection.close();
  }
}, 180_000);
