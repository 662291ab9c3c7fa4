/**
 * Trouble with Temporal as the bridge sees it, on a real dev server and real HTTP: one workflow
 * whose signals time out is that workflow's trouble, so the deliveries behind it to other
 * resources are delivered, and its own wait in order; a signal Temporal took whose answer was lost
 * is sent again and dropped by Temporal, so the delivery is in the history once; and with Temporal
 * away the bridge stays ready (it spools), telling in `/readyz` and the metrics that Temporal does
 * not answer.
 */
import { randomUUID } from 'node:crypto';
import net from 'node:net';
import { Client, Connection } from '@temporalio/client';
import pino from 'pino';
import { deliverToResource, subscribeToResourceWorkflow } from '../../activities/signalResource';
import { subscribeSignal, type ResourceDelivery } from '../../client/resourceMessages';
import { resourceWorkflowId } from '../../provider';
import { readBridgeConfig } from '../../webhook-bridge/config';
import { workflowIdsOf } from '../../webhook-bridge/routeDelivery';
import { startBridge, type BridgeOptions, type RunningBridge } from '../../webhook-bridge/startBridge';
import type { TemporalConfig } from '../../config/temporalConfig';
import { testDirectory, testTemporalConfig } from '../setup/testEnvironment';
import { envelope, idvCompleted, post, sign } from '../support/deliveries';
import { deliverSignals, signalsReceived } from '../support/signalsReceived';
import { waitUntil } from '../support/waitUntil';

const SECRET = 'temporal-trouble-secret';
const SIGNAL_TIMEOUT_MS = 1_000;
const temporal = testTemporalConfig();
const started: string[] = [];
const bridges: RunningBridge[] = [];
let connection: Connection;
let client: Client;

beforeAll(async () => {
  connection = await Connection.connect({ address: temporal.address });
  client = new Client({ connection, namespace: temporal.namespace });
});

afterAll(async () => {
  for (const bridge of bridges) await bridge.stop();
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

async function bridgeOn(on: TemporalConfig, options: BridgeOptions = {}): Promise<RunningBridge> {
  const env = { WEBHOOK_SECRET: SECRET, BRIDGE_SIGNAL_TIMEOUT_MS: String(SIGNAL_TIMEOUT_MS) };
  const config = { ...readBridgeConfig(env), port: 0, spoolDir: testDirectory('spool-trouble') };
  const bridge = await startBridge(config, on, {
    logger: pino({ level: 'silent' }),
    backoff: { initialMs: 100, maxMs: 1_000 },
    ...options,
  });
  bridges.push(bridge);
  return bridge;
}

/** Posts a signed IDV delivery for `requestId`; its answer's status. */
async function deliver(bridge: RunningBridge, requestId: string): Promise<number> {
  const raw = envelope('IdentityVerification.Completed', idvCompleted(requestId));
  const response = await post(bridge.url, raw, {
    'x-hmac-sha256-signature': sign(raw, SECRET),
    'x-batch-correlation-id': randomUUID(),
  });
  started.push(resourceWorkflowId({ kind: 'idv', id: requestId }));
  return response.status;
}

/** The signals a request's resource workflow received (0 when it does not exist). */
async function signalsTo(requestId: string): Promise<number> {
  try {
    const history = await client.workflow.getHandle(resourceWorkflowId({ kind: 'idv', id: requestId })).fetchHistory();
    return (history.events ?? []).filter((e) => e.workflowExecutionSignaledEventAttributes).length;
  } catch {
    return 0;
  }
}

test('one workflow whose signals time out: the 3 healthy deliveries behind it are delivered, its own wait', async () => {
  const troubled = `slow-${randomUUID()}`;
  const troubledId = resourceWorkflowId({ kind: 'idv', id: troubled });
  let slow = true;
  const attempts: string[] = [];
  // The troubled workflow answers after the deadline, as a workflow stuck on Temporal's side would:
  // the signal is sent once its deadline has passed, and gRPC answers DEADLINE_EXCEEDED.
  const bridge = await bridgeOn(temporal, {
    signalThrough: async (routed, signal) => {
      if (workflowIdsOf(routed).includes(troubledId)) {
        attempts.push(troubledId);
        if (slow) await new Promise((resolve) => setTimeout(resolve, SIGNAL_TIMEOUT_MS + 100));
      }
      return signal();
    },
  });

  expect(await deliver(bridge, troubled)).toBe(202);
  const healthy = [randomUUID(), randomUUID(), randomUUID()];
  for (const requestId of healthy) expect(await deliver(bridge, requestId)).toBe(202);
  // A second delivery to the troubled workflow queues behind its first.
  expect(await deliver(bridge, troubled)).toBe(202);

  await waitUntil('the healthy deliveries behind the troubled one', async () =>
    (await Promise.all(healthy.map(signalsTo))).every((n) => n === 1),
  );
  expect(await signalsTo(troubled)).toBe(0);
  expect(bridge.recorder.spoolDepth).toBe(2);
  expect(bridge.recorder.temporal.state).toBe('reachable');
  const metrics = await bridge.metrics.registry.metrics();
  expect(metrics).toMatch(/bridge_temporal_reachable 1/);
  expect(metrics).toMatch(/bridge_spool_resources_waiting 1/);

  slow = false;
  await bridge.recorder.drained();
  expect(await signalsTo(troubled)).toBe(2);
  // Tried with its own backoff (100 ms doubling to 1 s, each attempt a 1 s timeout), not in a loop.
  expect(attempts.length).toBeLessThan(15);
  for (const requestId of healthy) expect(await signalsTo(requestId)).toBe(1);
}, 60_000);

test('a signal Temporal took whose answer was lost is sent again, and the delivery is in the history once', async () => {
  const requestId = randomUUID();
  const workflowId = resourceWorkflowId({ kind: 'idv', id: requestId });
  let sends = 0;
  // Temporal applies the first signal, but its answer never comes back (gRPC's DEADLINE_EXCEEDED).
  const bridge = await bridgeOn(temporal, {
    signalThrough: async (routed, signal) => {
      await signal();
      if (workflowIdsOf(routed).includes(workflowId) && ++sends === 1)
        throw Object.assign(new Error('deadline exceeded on the way back'), { code: 4 });
    },
  });

  expect(await deliver(bridge, requestId)).toBe(202);
  await waitUntil('the delivery sent again', async () => sends === 2 && bridge.recorder.spoolDepth === 0);
  expect(await signalsTo(requestId)).toBe(1);
});

test('a delivery sent again to a resource workflow that a subscription started is dropped by Temporal', async () => {
  const id = randomUUID();
  const workflowId = resourceWorkflowId({ kind: 'idv', id });
  started.push(workflowId);
  const target = { client, taskQueue: `no-worker-${randomUUID()}` };
  await subscribeToResourceWorkflow(target, { kind: 'idv', id }, { workflowId: `journey-${id}` });
  const delivery: ResourceDelivery = {
    dedupeId: `IdentityVerification.Completed|${id}`,
    eventType: 'IdentityVerification.Completed',
    batchId: null,
    webhookId: randomUUID(),
    datetimeSent: new Date().toISOString(),
    receivedAt: new Date().toISOString(),
    parse: 'known',
    data: idvCompleted(id),
  };
  await deliverToResource(target, { kind: 'idv', id }, delivery);
  await deliverToResource(target, { kind: 'idv', id }, { ...delivery, receivedAt: new Date().toISOString() });
  await deliverToResource(target, { kind: 'idv', id }, { ...delivery, dedupeId: `${delivery.dedupeId}-other` });
  expect(await signalsReceived(client, workflowId, subscribeSignal.name)).toBe(1);
  // The repeat is dropped; another occurrence is not.
  expect(await deliverSignals(client, workflowId)).toBe(2);
});

/** An address nothing listens on: Temporal is away. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

test('with Temporal away the bridge is ready (it spools); /readyz and the metrics say Temporal does not answer', async () => {
  const bridge = await bridgeOn({ ...temporal, address: `127.0.0.1:${await closedPort()}` });
  expect(await deliver(bridge, randomUUID())).toBe(202);
  expect(bridge.recorder.spoolDepth).toBe(1);
  const readyz = new URL('/readyz', bridge.url);
  const body = await waitUntil('/readyz to say Temporal does not answer', async () => {
    const response = await fetch(readyz);
    expect(response.status).toBe(200);
    const json = (await response.json()) as { temporal: string };
    return json.temporal === 'unreachable' && json;
  });
  expect(body).toEqual({
    ready: true,
    temporal: 'unreachable',
    spool_depth: 1,
    spool_full: false,
    spool_writable: true,
  });
  expect((await fetch(new URL('/healthz', bridge.url))).status).toBe(200);
  expect(await bridge.metrics.registry.metrics()).toMatch(/bridge_temporal_reachable 0/);
});
