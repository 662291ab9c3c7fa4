/**
 * Unrouted deliveries, bridge side: unrouted deliveries of all cases share workflows, so what the bridge
 * hands them is bounded whatever was sent: a flood of one event type is spread over 16 workflows an
 * hour (by a hash of each delivery's identity), each delivery trimmed to ids, field names and sizes,
 * with no personal data. (Bounding the *number* of events a resource workflow carries is the
 * workflow's part; see docs/architecture.md.)
 */
import { randomUUID } from 'node:crypto';
import { Client, Connection } from '@temporalio/client';
import type { Payload } from '@temporalio/common';
import { EncryptionCodec } from '../../codec/encryptionCodec';
import { readPayloadKeys } from '../../codec/payloadKeys';
import pino from 'pino';
import { readBridgeConfig } from '../../webhook-bridge/config';
import { planDelivery, UNROUTED_SHARDS } from '../../webhook-bridge/routeDelivery';
import { startBridge, type RunningBridge } from '../../webhook-bridge/startBridge';
import { parseDelivery } from '../../provider';
import { envelope, post, sign } from '../support/deliveries';
import { unroutedWorkflowIds } from '../support/unroutedWorkflows';
import { testDirectory, testTemporalConfig } from '../setup/testEnvironment';

const SECRET = 'unrouted-secret';
const DELIVERIES = 200;
const temporal = testTemporalConfig();
let bridge: RunningBridge;
let connection: Connection;

beforeAll(async () => {
  const config = { ...readBridgeConfig({ WEBHOOK_SECRET: SECRET }), port: 0, spoolDir: testDirectory('spool') };
  bridge = await startBridge(config, temporal, { logger: pino({ level: 'silent' }) });
  connection = await Connection.connect({ address: temporal.address });
});

afterAll(async () => {
  await bridge?.stop();
  await connection?.close();
});

/** Personal data and bulk, as a new event type might carry. */
const bulky = (n: number) => ({
  case_id: `case-${n}`,
  person: { first_name: 'Grace', last_name: 'Hopper', date_of_birth: '1906-12-09', person_id: `p-${n}` },
  notes: 'n'.repeat(8_000),
  items: Array.from({ length: 200 }, (_, i) => ({ i, address: '1 Main Street' })),
});

test(`${DELIVERIES} unrouted deliveries with personal data and bulk: spread over shards, a bounded, trimmed payload each`, async () => {
  const type = `Unrouted.Soak${randomUUID().slice(0, 8)}`;
  const workflowIds = new Set<string>();
  for (let n = 0; n < DELIVERIES; n++) {
    const raw = envelope(type, bulky(n));
    const batchId = randomUUID();
    const sent = new Date();
    const response = await post(bridge.url, raw, {
      'x-hmac-sha256-signature': sign(raw, SECRET),
      'x-batch-correlation-id': batchId,
    });
    expect(response.status).toBe(202);
    for (const id of unroutedWorkflowIds(raw, batchId, sent, new Date())) workflowIds.add(id);
  }
  const client = new Client({ connection });
  const signalsOf = async (workflowId: string) => {
    const history = await client.workflow
      .getHandle(workflowId)
      .fetchHistory()
      .catch(() => ({ events: [] }));
    return (history.events ?? []).flatMap((e) => e.workflowExecutionSignaledEventAttributes?.input?.payloads ?? []);
  };
  const perWorkflow = await Promise.all([...workflowIds].map(signalsOf));
  // Every shard of the hour took some, none much more than its share (200 / 16 = 12.5).
  expect(perWorkflow.filter((p) => p.length > 0).length).toBeGreaterThanOrEqual(UNROUTED_SHARDS);
  expect(Math.max(...perWorkflow.map((p) => p.length))).toBeLessThanOrEqual(30);
  const encrypted = perWorkflow.flat();
  // Payloads are encrypted: the sizes and the text that count are the decoded ones.
  const payloads = await new EncryptionCodec(readPayloadKeys()).decode(encrypted as Payload[]);
  expect(payloads).toHaveLength(DELIVERIES);
  const sizes = payloads.map((p) => p.data?.length ?? 0);
  expect(Math.max(...sizes)).toBeLessThan(1_024);
  const text = payloads.map((p) => Buffer.from(p.data ?? []).toString('utf8')).join('\n');
  for (const personal of ['Grace', 'Hopper', '1906-12-09', 'Main Street']) expect(text).not.toContain(personal);
  expect(text).toContain('"case_id":"case-199"');
  expect(text).toContain('"person.person_id":"p-0"');
});

test('unrouted deliveries of another hour go to another workflow', () => {
  const body = JSON.parse(envelope('Brand.New', { a: 1 }));
  const plan = (receivedAt: string) =>
    planDelivery(parseDelivery(body), body, { batchId: null, receivedAt }).targets[0]!.resource;
  expect(plan('2026-11-21T23:59:59.000Z')).toEqual({
    kind: 'unrouted',
    id: expect.stringMatching(/^Brand\.New\/2026-11-21T23\/\d{2}$/),
  });
  expect(plan('2026-11-22T00:00:00.000Z')).toEqual({
    kind: 'unrouted',
    id: expect.stringMatching(/^Brand\.New\/2026-11-22T00\/\d{2}$/),
  });
});
