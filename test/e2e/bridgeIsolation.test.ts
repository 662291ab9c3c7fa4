/**
 * Delivery isolation, on a real Temporal dev server and real HTTP: no delivery can stall the others. A
 * delivery whose ids come out too long, or that Temporal refuses for good, never holds up a valid
 * delivery for another resource; refused ones are kept in the dead-letter store and replayable.
 */
import { randomUUID } from 'node:crypto';
import { Client, Connection } from '@temporalio/client';
import { dataConverterFor } from '../../codec/dataConverter';
import { readPayloadKeys } from '../../codec/payloadKeys';
import pino from 'pino';
import { resourceWorkflowId } from '../../provider';
import { readBridgeConfig } from '../../webhook-bridge/config';
import { replayDeadLetter } from '../../webhook-bridge/deadLetterReplay';
import { unroutedKey } from '../../webhook-bridge/routeDelivery';
import { startBridge, type RunningBridge } from '../../webhook-bridge/startBridge';
import { temporalSignaller } from '../../webhook-bridge/temporalSignaller';
import type { ResourceDelivery } from '../../client/resourceMessages';
import { envelope, idvCompleted, post, sign } from '../support/deliveries';
import { heldDeliveries } from '../support/heldDeliveries';
import { testDirectory, testTemporalConfig } from '../setup/testEnvironment';

const SECRET = 'isolation-secret';
const temporal = testTemporalConfig();
let bridge: RunningBridge;
let connection: Connection;
let client: Client;

beforeAll(async () => {
  const config = {
    ...readBridgeConfig({ WEBHOOK_SECRET: SECRET, BRIDGE_MAX_BODY: String(4 * 1024 * 1024) }),
    port: 0,
    spoolDir: testDirectory('spool'),
  };
  bridge = await startBridge(config, temporal, {
    logger: pino({ level: 'silent' }),
    backoff: { initialMs: 50, maxMs: 500 },
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
  await connection?.close();
});

const deliver = (raw: string) =>
  post(bridge.url, raw, { 'x-hmac-sha256-signature': sign(raw, SECRET), 'x-batch-correlation-id': randomUUID() });

/** The `deliver` signals a resource workflow received, once `until` holds or 15 s have passed. */
async function deliveriesTo(
  workflowId: string,
  until: (d: ResourceDelivery[]) => boolean = (d) => d.length > 0,
): Promise<ResourceDelivery[]> {
  const deadline = Date.now() + 15_000;
  let seen: ResourceDelivery[] = [];
  while (Date.now() < deadline) {
    try {
      seen = await heldDeliveries(client, workflowId);
      if (until(seen)) return seen;
    } catch {
      // Not started yet.
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return seen;
}

test('a signed delivery with a 1,000-character event type does not hold up a valid one', async () => {
  const longType = `Poison.${'x'.repeat(993)}`;
  expect((await deliver(envelope(longType, { entity_id: 'e-1' }))).status).toBe(202);
  const requestId = randomUUID();
  expect((await deliver(envelope('IdentityVerification.Completed', idvCompleted(requestId)))).status).toBe(202);
  const valid = await deliveriesTo(resourceWorkflowId({ kind: 'idv', id: requestId }));
  expect(valid).toHaveLength(1);
  expect(bridge.recorder.spoolDepth).toBe(0);
  // The long one is kept too, under a bounded id.
  const unroutedId = resourceWorkflowId(unroutedKey(longType, new Date().toISOString(), randomUUID()));
  expect(unroutedId.length).toBeLessThanOrEqual(220);
});

test('a delivery Temporal refuses for good goes to the dead-letter store, and others pass meanwhile', async () => {
  const poisonId = randomUUID();
  // Over the server's 2 MB payload limit: INVALID_ARGUMENT, which no retry cures.
  const poison = envelope('IdentityVerification.Completed', {
    ...idvCompleted(poisonId),
    padding: 'p'.repeat(2_500_000),
  });
  expect((await deliver(poison)).status).toBe(202);
  const requestId = randomUUID();
  expect((await deliver(envelope('IdentityVerification.Completed', idvCompleted(requestId)))).status).toBe(202);
  expect(await deliveriesTo(resourceWorkflowId({ kind: 'idv', id: requestId }))).toHaveLength(1);

  const letters = bridge.deadLetters.list();
  expect(letters).toHaveLength(1);
  expect(letters[0]).toMatchObject({ grpcCode: 3, workflowIds: [resourceWorkflowId({ kind: 'idv', id: poisonId })] });
  expect(letters[0]!.bytes).toBe(Buffer.byteLength(poison));
  const metrics = await bridge.metrics.registry.metrics();
  expect(metrics).toMatch(/bridge_dead_letters_total\{event_type="IdentityVerification.Completed"\} 1/);
  expect(metrics).toMatch(/bridge_dead_letter_depth 1/);
  expect(metrics).toMatch(
    /bridge_deliveries_total\{outcome="dead_lettered",event_type="IdentityVerification.Completed"\} 1/,
  );

  // Replayed before the cause is fixed, it is refused again and stays.
  const signal = temporalSignaller(client, temporal.taskQueue);
  await expect(replayDeadLetter(bridge.deadLetters, letters[0]!.id, signal)).resolves.toMatchObject({
    outcome: 'refused',
    grpcCode: 3,
  });
  expect(bridge.deadLetters.list()).toHaveLength(1);
});

test('metric labels stay within the catalogue whatever event types arrive', async () => {
  for (let i = 0; i < 20; i++) expect((await deliver(envelope(`Random.${randomUUID()}`, { n: i }))).status).toBe(202);
  const labels = (await bridge.metrics.deliveries.get()).values.map((v) => v.labels.event_type);
  expect(labels).not.toEqual(expect.arrayContaining([expect.stringMatching(/^Random\./)]));
  expect(labels).toContain('other');
});
