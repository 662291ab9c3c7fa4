/** The webhook bridge on a real Temporal dev server and real HTTP. */
import { Writable } from 'node:stream';
import { randomUUID } from 'node:crypto';
import { Client, Connection } from '@temporalio/client';
import pino from 'pino';
import { dataConverterFor } from '../../codec/dataConverter';
import { readPayloadKeys } from '../../codec/payloadKeys';
import { readBridgeConfig } from '../../webhook-bridge/config';
import { startBridge, type RunningBridge } from '../../webhook-bridge/startBridge';
import { startWorker, type RunningWorker } from '../../worker/createWorker';
import { resourceStateQuery, type ResourceState } from '../../client/resourceMessages';
import { envelope, idvCompleted, payslipOccurrence, post, sign } from '../support/deliveries';
import {
  suiteNamespaces,
  testDirectory,
  testTemporalConfig,
  testWorkflowBundle,
  testCaseFile,
} from '../setup/testEnvironment';
import type { CaseFileStore } from '../../case-file/store';
import { unroutedWorkflowIds } from '../support/unroutedWorkflows';
import { deliverSignals } from '../support/signalsReceived';
import { waitUntil } from '../support/waitUntil';

const SECRET = 'bridge-test-secret';
// A namespace of its own: the unrouted workflows of the hour (`resource/unrouted/<type>/<hour>/<shard>`) are
// this suite's, on its task queue, served by its worker, whatever other suites delivered before.
const temporal = testTemporalConfig(suiteNamespaces.bridge);
const logLines: string[] = [];
let bridge: RunningBridge;
let worker: RunningWorker;
let caseFile: CaseFileStore;
let connection: Connection;
let client: Client;

beforeAll(async () => {
  const logStream = new Writable({
    write(chunk, _encoding, done) {
      logLines.push(chunk.toString());
      done();
    },
  });
  const config = {
    ...readBridgeConfig({ WEBHOOK_SECRET: SECRET, BRIDGE_MAX_BODY: '4096' }),
    port: 0,
    spoolDir: testDirectory('spool'),
  };
  bridge = await startBridge(config, temporal, { logger: pino({ level: 'info' }, logStream) });
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

/** The values of these series (`name{labels}`) in the bridge's /metrics; 0 for one not there yet. */
async function metricValues(series: string[]): Promise<Record<string, number>> {
  const lines = (await (await fetch(bridge.url.replace('/webhooks', '/metrics'))).text()).split('\n');
  const valueOf = (name: string) =>
    Number(lines.find((line) => line.startsWith(`${name} `))?.slice(name.length + 1) ?? 0);
  return Object.fromEntries(series.map((name) => [name, valueOf(name)]));
}

const deliver = (raw: string, batchId: string, secret = SECRET) =>
  post(bridge.url, raw, { 'x-hmac-sha256-signature': sign(raw, secret), 'x-batch-correlation-id': batchId });

/** The resource's state once `until` holds; fails naming the workflow when it does not within 20 s. */
function resourceState(workflowId: string, until: (s: ResourceState) => boolean): Promise<ResourceState> {
  return waitUntil(`${workflowId} reaching the expected state`, async () => {
    const state = await client.workflow.getHandle(workflowId).query(resourceStateQuery);
    return until(state) ? state : undefined;
  });
}

/** Delivers an unrouted delivery; the state of the workflow it went to once `until` holds there. */
async function deliverUnrouted(raw: string, batchId: string, until: (s: ResourceState) => boolean) {
  const sent = new Date();
  expect((await deliver(raw, batchId)).status).toBe(202);
  const candidates = unroutedWorkflowIds(raw, batchId, sent, new Date());
  return waitUntil(`one of ${candidates.join(', ')} reaching the expected state`, async () => {
    for (const workflowId of candidates) {
      const state = await client.workflow
        .getHandle(workflowId)
        .query(resourceStateQuery)
        .catch(() => undefined);
      if (state && until(state)) return state;
    }
    return undefined;
  });
}

describe('webhook bridge', () => {
  test('a verified delivery reaches its resource workflow', async () => {
    const requestId = randomUUID();
    expect(
      (await deliver(envelope('IdentityVerification.Completed', idvCompleted(requestId)), randomUUID())).status,
    ).toBe(202);
    const state = await resourceState(`resource/idv/${requestId}`, (s) => s.events.length === 1);
    expect(state.events[0]).toMatchObject({ eventType: 'IdentityVerification.Completed', parse: 'known' });
  });

  test('the same occurrence twice, or through two webhooks, is applied once', async () => {
    const requestId = randomUUID();
    const batchId = randomUUID();
    const data = idvCompleted(requestId);
    const first = envelope('IdentityVerification.Completed', data, '11111111-1111-4111-8111-111111111111');
    const viaOtherWebhook = envelope('IdentityVerification.Completed', data, '22222222-2222-4222-8222-222222222222');
    for (const raw of [first, first, viaOtherWebhook]) expect((await deliver(raw, batchId)).status).toBe(202);
    // Each copy went with the first's request id, so Temporal dropped it; each 202 came once it had answered.
    expect(await deliverSignals(client, `resource/idv/${requestId}`)).toBe(1);
    const state = await resourceState(`resource/idv/${requestId}`, (s) => s.events.length === 1);
    expect(state).toMatchObject({ duplicatesIgnored: 0, occurrences: 1 });
  });

  test('parent and child deliveries of one occurrence both arrive and count as one occurrence', async () => {
    const { documentId, child, parent } = payslipOccurrence();
    const batchId = randomUUID();
    expect((await deliver(envelope('PayslipProcessing.Completed', child), batchId)).status).toBe(202);
    expect((await deliver(envelope('DocumentProcessing.Completed', parent), batchId)).status).toBe(202);
    const state = await resourceState(`resource/document/${documentId}`, (s) => s.events.length === 2);
    expect(state.events.map((e) => e.eventType).sort()).toEqual([
      'DocumentProcessing.Completed',
      'PayslipProcessing.Completed',
    ]);
    expect(state.occurrences).toBe(1);
  });

  test('an unknown event type is kept per type, hour and shard, trimmed to ids and sizes', async () => {
    const type = `Brand.New${randomUUID().slice(0, 8)}`;
    const raw = envelope(type, { anything: true, entity_id: 'e-7', person: { first_name: 'Ada' } });
    const unknown = await deliverUnrouted(raw, randomUUID(), (s) => s.events.length === 1);
    expect(unknown.events[0]).toMatchObject({
      parse: 'unknown-event-type',
      data: { trimmed: true, fields: ['anything', 'entity_id', 'person'], ids: { entity_id: 'e-7' } },
    });
    expect(JSON.stringify(unknown.events[0])).not.toContain('Ada');
  });

  test('data that does not match its schema still reaches its resource when its ids can be read', async () => {
    const requestId = randomUUID();
    const broken = { ...idvCompleted(requestId), verification_status: 'Maybe' };
    expect((await deliver(envelope('IdentityVerification.Completed', broken), randomUUID())).status).toBe(202);
    const state = await resourceState(`resource/idv/${requestId}`, (s) => s.events.length === 1);
    expect(state.events[0]).toMatchObject({
      parse: 'invalid-data',
      problems: [expect.stringContaining('verification_status')],
      data: { verification_status: 'Maybe' },
    });

    // Without readable ids it is kept with the hour's unrouted deliveries of its type.
    const batchId = randomUUID();
    const raw = envelope('IdentityVerification.Completed', { verification_status: 'Maybe' });
    const unrouted = await deliverUnrouted(raw, batchId, (s) => s.events.some((e) => e.batchId === batchId));
    expect(unrouted.events.find((e) => e.batchId === batchId)).toMatchObject({
      parse: 'invalid-data',
      data: { trimmed: true, fields: ['verification_status'] },
    });
  });

  test('verified bytes that are not JSON are answered 400; a body over the limit 413', async () => {
    expect((await deliver('{"not json', randomUUID())).status).toBe(400);
    expect((await deliver(JSON.stringify({ pad: 'x'.repeat(5000) }), randomUUID())).status).toBe(413);
  });

  test('a wrong or missing signature is answered 401', async () => {
    const raw = envelope('IdentityVerification.Completed', idvCompleted());
    expect((await deliver(raw, randomUUID(), 'wrong-secret')).status).toBe(401);
    expect((await post(bridge.url, raw, {})).status).toBe(401);
  });

  test('health, readiness and metrics', async () => {
    expect((await fetch(bridge.url.replace('/webhooks', '/healthz'))).status).toBe(200);
    const ready = await fetch(bridge.url.replace('/webhooks', '/readyz'));
    expect(ready.status).toBe(200);
    expect(await ready.json()).toMatchObject({ ready: true, spool_depth: 0, spool_full: false, spool_writable: true });
    // The counters this test moves itself (run alone or after the others, it sees the same deltas).
    const counted = {
      signalled: 'bridge_deliveries_total{outcome="signalled",event_type="IdentityVerification.Completed"}',
      mismatch: 'bridge_signature_failures_total{reason="mismatch"}',
      tooLarge: 'bridge_deliveries_total{outcome="too_large",event_type="unknown"}',
    };
    const before = await metricValues(Object.values(counted));
    const raw = envelope('IdentityVerification.Completed', idvCompleted());
    expect((await deliver(raw, randomUUID())).status).toBe(202);
    expect((await deliver(raw, randomUUID(), 'wrong-secret')).status).toBe(401);
    expect((await deliver(JSON.stringify({ pad: 'x'.repeat(5000) }), randomUUID())).status).toBe(413);
    const after = await metricValues(Object.values(counted));
    expect(Object.values(counted).map((name) => after[name]! - before[name]!)).toEqual([1, 1, 1]);
    const metrics = await (await fetch(bridge.url.replace('/webhooks', '/metrics'))).text();
    expect(metrics).toContain('bridge_signal_latency_seconds_bucket');
    expect(metrics).toMatch(/bridge_spool_depth 0/);
  });

  test('logs carry batch id and event type, never the secret or a signature', async () => {
    const raw = envelope('IdentityVerification.Completed', idvCompleted());
    const batchId = randomUUID();
    await deliver(raw, batchId);
    const text = logLines.join('');
    expect(text).toContain(batchId);
    expect(text).toContain('"eventType":"IdentityVerification.Completed"');
    expect(text).not.toContain(SECRET);
    expect(text).not.toContain(sign(raw, SECRET));
    expect(text).not.toContain(sign(raw, 'wrong-secret'));
  });

  test('log lines stay short whatever the batch id and event type', async () => {
    const before = logLines.length;
    const raw = envelope(`Long.${'t'.repeat(3000)}`, { anything: 'x' });
    expect((await deliver(raw, 'b'.repeat(6000))).status).toBe(202);
    const lines = logLines.slice(before);
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) expect(line.length).toBeLessThan(1_000);
  });
});

describe('webhook bridge, secret read from the provider', () => {
  test('a rotation at the provider is picked up, and the old secret is honoured during the grace period', async () => {
    const { startSimulator } = await import('../../simulator/startSimulator');
    const { ProviderClient } = await import('../../activities/providerClient');
    const { webhookManagement } = await import('../../activities/webhookManagement');
    const sim = await startSimulator({
      port: 0,
      clientId: 'c',
      clientSecret: 's',
      seed: 1,
      tokenLifetimeSeconds: 3600,
      allowInsecureLoopbackCallbacks: true,
      processingDelayMs: 0,
    });
    const provider = {
      baseUrl: sim.baseUrl,
      authUrl: sim.authUrl,
      clientId: 'c',
      clientSecrets: ['s'],
      requestTimeoutMs: 5_000,
    };
    const management = webhookManagement(new ProviderClient(provider));
    const original = (await management.createSecret()).secret;
    const config = {
      ...readBridgeConfig({ WEBHOOK_SECRET_SOURCE: 'provider', WEBHOOK_REQUIRE_SIGNATURE: 'true' }),
      port: 0,
      spoolDir: testDirectory('spool'),
    };
    const fromProvider = await startBridge(config, temporal, { provider, logger: pino({ level: 'silent' }) });
    try {
      const send = (secret: string) => {
        const raw = envelope('IdentityVerification.Completed', idvCompleted());
        return post(fromProvider.url, raw, {
          'x-hmac-sha256-signature': sign(raw, secret),
          'x-batch-correlation-id': randomUUID(),
        }).then((r) => r.status);
      };
      expect(await send(original)).toBe(202);
      const rotated = (await management.rotateSecret()).secret;
      expect(await send(rotated)).toBe(202);
      expect(await send(original)).toBe(202);
      expect(await send('never-issued')).toBe(401);
      expect(fromProvider.secrets.secrets()).toEqual([rotated, original]);
    } finally {
      await fromProvider.stop();
      await sim.stop();
    }
  });
});

describe('webhook bridge, graceful shutdown', () => {
  test('stopping finishes a request in flight, which is still durably recorded', async () => {
    const net = await import('node:net');
    // A Temporal that accepts connections and never answers: the signal hangs until its deadline.
    const sockets: import('node:net').Socket[] = [];
    const blackhole = net.createServer((socket) => {
      sockets.push(socket);
      socket.on('error', () => undefined);
    });
    await new Promise<void>((r) => blackhole.listen(0, '127.0.0.1', r));
    const { port } = blackhole.address() as import('node:net').AddressInfo;
    const config = {
      ...readBridgeConfig({ WEBHOOK_SECRET: SECRET }),
      port: 0,
      spoolDir: testDirectory('spool'),
      signalTimeoutMs: 1_000,
    };
    const hanging = await startBridge(
      config,
      { ...temporal, address: `127.0.0.1:${port}` },
      { logger: pino({ level: 'silent' }) },
    );
    try {
      const raw = envelope('IdentityVerification.Completed', idvCompleted());
      const inFlight = post(hanging.url, raw, {
        'x-hmac-sha256-signature': sign(raw, SECRET),
        'x-batch-correlation-id': randomUUID(),
      });
      await waitUntil('the bridge connecting to the Temporal that never answers', () => sockets.length > 0);
      const stopping = hanging.stop();
      expect((await inFlight).status).toBe(202);
      await stopping;
      expect(hanging.recorder.spoolDepth).toBe(1);
      await expect(fetch(hanging.url, { method: 'POST', body: raw })).rejects.toThrow();
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise((r) => blackhole.close(r));
    }
  });
});
