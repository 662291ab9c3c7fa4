/**
 * A captured delivery sent again is one delivery, whatever unsigned headers come with it: the
 * bridge's dedupe identity is taken only from what the provider signs (event type and data), and
 * every copy goes to Temporal with the request id of the first, so Temporal drops the copies.
 */
import { randomUUID } from 'node:crypto';
import { Client, Connection } from '@temporalio/client';
import pino from 'pino';
import { dataConverterFor } from '../../codec/dataConverter';
import { readPayloadKeys } from '../../codec/payloadKeys';
import { readBridgeConfig } from '../../webhook-bridge/config';
import { startBridge, type RunningBridge } from '../../webhook-bridge/startBridge';
import { startWorker, type RunningWorker } from '../../worker/createWorker';
import { resourceStateQuery, type ResourceState } from '../../client/resourceMessages';
import { envelope, idvCompleted, post, sign } from '../support/deliveries';
import { testDirectory, testTemporalConfig, testWorkflowBundle, testCaseFile } from '../setup/testEnvironment';
import type { CaseFileStore } from '../../case-file/store';
import { deliverSignals } from '../support/signalsReceived';
import { waitUntil } from '../support/waitUntil';

const SECRET = 'bridge-replay-secret';
const temporal = testTemporalConfig();
let bridge: RunningBridge;
let worker: RunningWorker;
let caseFile: CaseFileStore;
let connection: Connection;
let client: Client;

beforeAll(async () => {
  const config = { ...readBridgeConfig({ WEBHOOK_SECRET: SECRET }), port: 0, spoolDir: testDirectory('spool') };
  bridge = await startBridge(config, temporal, { logger: pino({ level: 'silent' }) });
  caseFile = await testCaseFile();
  worker = await startWorker({
    temporal,
    caseFile,
    provider: {
      baseUrl: 'http://127.0.0.1:9',
      authUrl: 'http://127.0.0.1:9/oauth',
      clientId: 'x',
      clientSecrets: ['x'],
      requestTimeoutMs: 1000,
    },
    workflowBundle: testWorkflowBundle(),
  });
  connection = await Connection.connect({ address: temporal.address });
  client = new Client({
    connection,
    namespace: temporal.namespace,
    dataConverter: dataConverterFor(readPayloadKeys()),
  });
});

afterAll(async () => {
  await bridge?.stop();
  await worker?.stop();
  await caseFile?.close();
  await connection?.close();
});

const deliver = (raw: string, batchId: string) =>
  post(bridge.url, raw, { 'x-hmac-sha256-signature': sign(raw, SECRET), 'x-batch-correlation-id': batchId });

function resourceState(workflowId: string, until: (s: ResourceState) => boolean): Promise<ResourceState> {
  return waitUntil(`${workflowId} reaching the expected state`, async () => {
    const state = await client.workflow.getHandle(workflowId).query(resourceStateQuery);
    return until(state) ? state : undefined;
  });
}

test('one signed body sent five times with different batch headers is recorded once', async () => {
  const requestId = randomUUID();
  const raw = envelope('IdentityVerification.Completed', idvCompleted(requestId));
  for (let i = 0; i < 5; i++) expect((await deliver(raw, randomUUID())).status).toBe(202);
  // Each 202 came once Temporal had answered, so the history is complete.
  expect(await deliverSignals(client, `resource/idv/${requestId}`)).toBe(1);
  const state = await resourceState(`resource/idv/${requestId}`, (s) => s.events.length === 1);
  expect(state).toMatchObject({ duplicatesIgnored: 0, occurrences: 1 });
});

test('a replay under another batch header and the copy through a second webhook are one delivery', async () => {
  const requestId = randomUUID();
  const batchId = randomUUID();
  const data = idvCompleted(requestId);
  const first = envelope('IdentityVerification.Completed', data, '11111111-1111-4111-8111-111111111111');
  const viaOtherWebhook = envelope('IdentityVerification.Completed', data, '22222222-2222-4222-8222-222222222222');
  expect((await deliver(first, batchId)).status).toBe(202);
  expect((await deliver(first, randomUUID())).status).toBe(202);
  expect((await deliver(viaOtherWebhook, batchId)).status).toBe(202);
  expect(await deliverSignals(client, `resource/idv/${requestId}`)).toBe(1);
  const state = await resourceState(`resource/idv/${requestId}`, (s) => s.events.length === 1);
  expect(state).toMatchObject({ duplicatesIgnored: 0, occurrences: 1 });
  expect(state.events[0]!.batchId).toBe(batchId);
});
