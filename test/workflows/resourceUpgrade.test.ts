/**
 * A resource workflow under Worker Versioning moves to the deployment's current version at
 * continue-as-new: pinned to build A, it stays there while A is current; once B is made current,
 * its next task (a delivery) continues it as new, and the new run starts on B, pinned there, with
 * the events it had. Two in-process workers of the same code, one per build, on a task queue of
 * the test's own; the resource is an IDV request nobody subscribes to, so it needs no activity.
 */
import { randomUUID } from 'node:crypto';
import { Client, Connection } from '@temporalio/client';
import type { WorkerDeploymentVersion } from '@temporalio/common';
import { NativeConnection, Worker } from '@temporalio/worker';
import {
  deliverSignal,
  resourceStateQuery,
  resourceWorkflowId,
  type ResourceDelivery,
} from '../../client/resourceMessages';
import { dataConverterFor } from '../../codec/dataConverter';
import { generatePayloadKey } from '../../codec/payloadKeys';
import { resourceWorkflow } from '../../workflows/resourceWorkflow';
import { workerDeploymentOptionsFor } from '../../worker/workerVersioning';
import { testTemporalConfig, testWorkflowBundle } from '../setup/testEnvironment';
import { makeCurrent, versionOf } from '../support/workerDeployments';
import { waitUntil } from '../support/waitUntil';

const temporal = testTemporalConfig();
const dataConverter = dataConverterFor([generatePayloadKey('resource-upgrade')]);
const deploymentName = `resources-upgrade-${randomUUID().slice(0, 8)}`;
const buildA = { deploymentName, buildId: 'a' };
const buildB = { deploymentName, buildId: 'b' };

let connection: Connection;
let client: Client;
const workers: { worker: Worker; running: Promise<void> }[] = [];

beforeAll(async () => {
  connection = await Connection.connect({ address: temporal.address });
  client = new Client({ connection, namespace: temporal.namespace, dataConverter });
});

afterAll(async () => {
  for (const { worker } of workers) if (worker.getState() === 'RUNNING') worker.shutdown();
  await Promise.all(workers.map(({ running }) => running));
  await connection?.close();
});

async function startWorker(version: WorkerDeploymentVersion): Promise<void> {
  const worker = await Worker.create({
    connection: await NativeConnection.connect({ address: temporal.address }),
    namespace: temporal.namespace,
    taskQueue: temporal.taskQueue,
    dataConverter,
    workflowBundle: testWorkflowBundle(),
    // Deliveries nobody subscribed to are handed to the sightings after a grace: taken at once here.
    activities: { recordResourceSightings: async () => undefined },
    ...workerDeploymentOptionsFor(version),
  });
  workers.push({ worker, running: worker.run() });
}

function delivery(n: number): ResourceDelivery {
  const now = new Date().toISOString();
  return {
    dedupeId: `delivery-${n}`,
    eventType: 'identity_verification.updated',
    batchId: null,
    webhookId: `webhook-${n}`,
    datetimeSent: now,
    receivedAt: now,
    parse: 'known',
    data: { n },
  };
}

test('a resource pinned to build A continues as new onto build B once B is current, carrying its events', async () => {
  await startWorker(buildA);
  await makeCurrent(client, buildA);
  const handle = await client.workflow.start(resourceWorkflow, {
    workflowId: resourceWorkflowId({ kind: 'idv', id: randomUUID() }),
    taskQueue: temporal.taskQueue,
    args: [{ resource: { kind: 'idv', id: 'upgrade' }, retention: '1 hour' }],
  });
  const firstRun = handle.firstExecutionRunId;
  await handle.signal(deliverSignal, delivery(1));
  await waitUntil(
    'the first delivery recorded',
    async () => (await handle.query(resourceStateQuery)).events.length === 1,
  );
  // A is current: the delivery is recorded where the run started, with no continue-as-new.
  expect(await versionOf(handle)).toEqual({ behavior: 'PINNED', buildId: 'a' });
  expect((await handle.describe()).runId).toBe(firstRun);

  await startWorker(buildB);
  await makeCurrent(client, buildB);
  await handle.signal(deliverSignal, delivery(2));

  const latest = client.workflow.getHandle(handle.workflowId);
  await waitUntil(
    'a new run on build B',
    async () => (await latest.describe()).runId !== firstRun && (await versionOf(latest)).buildId === 'b',
    { timeoutMs: 30_000 },
  );
  expect(await versionOf(latest)).toEqual({ behavior: 'PINNED', buildId: 'b' });
  const state = await latest.query(resourceStateQuery);
  expect(state.events.map((e) => e.dedupeId)).toEqual(['delivery-1', 'delivery-2']);
  expect((await client.workflow.getHandle(handle.workflowId, firstRun).describe()).status.name).toBe(
    'CONTINUED_AS_NEW',
  );
}, 90_000);
