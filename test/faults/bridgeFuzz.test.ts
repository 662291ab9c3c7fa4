/**
 * Fault suite, fuzzing the bridge: 5,000 signed deliveries with random event types, ids and data (fast-check,
 * seeded), sent eight at a time to a real bridge on the real dev server. None crashes the bridge
 * or is answered 5xx, none waits in the spool behind another (every one is signalled or
 * dead-lettered at once, and a valid canary sent after each batch reaches Temporal at once), and
 * the number of metric series stays within the fixed label sets.
 *
 * About a minute on two shared cores, so it runs with the fault suite (`npm run test:faults`), not
 * in `npm test`.
 */
import { randomUUID } from 'node:crypto';
import { Client, Connection } from '@temporalio/client';
import fc from 'fast-check';
import pino from 'pino';
import { knownEventTypes, resourceWorkflowId } from '../../provider';
import { readBridgeConfig } from '../../webhook-bridge/config';
import { eventTypeLabels } from '../../webhook-bridge/eventTypeLabel';
import { startBridge, type RunningBridge } from '../../webhook-bridge/startBridge';
import { envelope, idvCompleted, post, sign } from '../support/deliveries';
import { testDirectory, testTemporalConfig } from '../setup/testEnvironment';

const SECRET = 'fuzz-secret';
const DELIVERIES = 5_000;
const CONCURRENCY = 8;
const temporal = testTemporalConfig();
let bridge: RunningBridge;
let connection: Connection;

beforeAll(async () => {
  // A generous signal deadline: on two shared cores a slow answer must not pass for a stall.
  const config = {
    ...readBridgeConfig({ WEBHOOK_SECRET: SECRET, BRIDGE_MAX_BODY: String(4 * 1024 * 1024) }),
    port: 0,
    spoolDir: testDirectory('spool'),
    signalTimeoutMs: 20_000,
  };
  bridge = await startBridge(config, temporal, { logger: pino({ level: 'silent' }) });
  connection = await Connection.connect({ address: temporal.address });
});

afterAll(async () => {
  await bridge?.stop();
  await connection?.close();
});

const anyText = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.string({ minLength: 900, maxLength: 2_000 }),
  fc.uuid(),
);
const eventTypes = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...knownEventTypes) },
  { weight: 2, arbitrary: anyText },
  { weight: 1, arbitrary: fc.constantFrom('', 'invalid-envelope', 'other', 'unknown') },
);
const statusWords = fc.constantFrom(
  'Complete',
  'Failed',
  'Success',
  'Rejected',
  'Connected',
  'Completed',
  'Expired',
  'Approved',
  'Maybe',
  '',
);
const ids = fc.oneof(fc.uuid(), anyText);
/** Data shaped like the catalogue's, with random ids and words, or anything at all. */
const data = fc.oneof(
  fc.record({
    identity_request: fc.record({ request_id: ids }),
    status: statusWords,
    verification_status: statusWords,
  }),
  fc.record({ document: fc.record({ document_id: ids }), status: statusWords, entity_id: ids }),
  fc.record({ request_id: ids, income_and_employer_request: fc.record({ request_id: ids }), entity_id: ids }),
  fc.dictionary(fc.string({ maxLength: 20 }), fc.jsonValue({ maxDepth: 3 }), { maxKeys: 8 }),
);
/** Now and then a body over the server's payload limit: Temporal refuses it for good. */
const padding = fc.oneof({ weight: 499, arbitrary: fc.constant(0) }, { weight: 1, arbitrary: fc.constant(2_200_000) });
const deliveries = fc.record({
  eventType: eventTypes,
  data,
  padding,
  batchId: fc.oneof(fc.uuid(), fc.string({ maxLength: 300 })),
  webhookId: ids,
});

async function exists(workflowId: string): Promise<boolean> {
  try {
    await new Client({ connection }).workflow.getHandle(workflowId).describe();
    return true;
  } catch {
    return false;
  }
}

test(`${DELIVERIES} random signed deliveries: no crash, no 5xx, no stall, bounded metric series`, async () => {
  const samples = fc.sample(deliveries, { numRuns: DELIVERIES, seed: 20261121 });
  const statuses = new Map<number, number>();
  for (let start = 0; start < samples.length; start += CONCURRENCY) {
    const batch = samples.slice(start, start + CONCURRENCY);
    const answers = await Promise.all(
      batch.map(async (s) => {
        const raw = JSON.stringify({
          webhook_id: s.webhookId,
          webhook_name: 'fuzz',
          datetime_sent: new Date().toISOString(),
          external_ref: null,
          event_type: s.eventType,
          data: s.padding ? { ...s.data, padding: 'p'.repeat(s.padding) } : s.data,
        });
        const headers: Record<string, string> = { 'x-hmac-sha256-signature': sign(raw, SECRET) };
        if (s.batchId) headers['x-batch-correlation-id'] = s.batchId;
        const response = await post(bridge.url, raw, headers);
        await response.arrayBuffer();
        return response.status;
      }),
    );
    for (const status of answers) statuses.set(status, (statuses.get(status) ?? 0) + 1);
    // Nothing waits in the spool: a refused delivery went to dead letters, not in front of others.
    expect(bridge.recorder.spoolDepth).toBe(0);
    if (start % (CONCURRENCY * 25) === 0) {
      const canary = randomUUID();
      const raw = envelope('IdentityVerification.Completed', idvCompleted(canary));
      expect(
        (
          await post(bridge.url, raw, {
            'x-hmac-sha256-signature': sign(raw, SECRET),
            'x-batch-correlation-id': randomUUID(),
          })
        ).status,
      ).toBe(202);
      expect(await exists(resourceWorkflowId({ kind: 'idv', id: canary }))).toBe(true);
    }
  }
  expect([...statuses.keys()]).toEqual([202]);
  expect(statuses.get(202)).toBe(DELIVERIES);
  expect((await fetch(bridge.url.replace('/webhooks', '/healthz'))).status).toBe(200);

  const outcomes = (await bridge.metrics.deliveries.get()).values;
  expect(outcomes.every((v) => (eventTypeLabels as readonly string[]).includes(v.labels.event_type as string))).toBe(
    true,
  );
  expect(outcomes.filter((v) => v.labels.outcome === 'spooled')).toEqual([]);
  expect(outcomes.length).toBeLessThanOrEqual(eventTypeLabels.length * 2);
  const series = (await bridge.metrics.registry.getMetricsAsJSON()).reduce((n, m) => n + m.values.length, 0);
  expect(series).toBeLessThan(200);
  expect(bridge.deadLetters.count).toBeGreaterThan(0);
}, 300_000);
