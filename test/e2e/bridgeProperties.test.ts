/**
 * Property: whatever bytes and headers arrive, the bridge answers (never crashes, never 5xx), and
 * it records exactly the deliveries whose signature matches their exact bytes and that are JSON;
 * nothing unverified is ever signalled.
 */
import { createHmac, randomBytes } from 'node:crypto';
import fc from 'fast-check';
import pino from 'pino';
import { readBridgeConfig } from '../../webhook-bridge/config';
import { startBridge, type RunningBridge } from '../../webhook-bridge/startBridge';
import { suiteNamespaces, testDirectory, testTemporalConfig } from '../setup/testEnvironment';

const SECRET = 'property-secret';
const MAX_BODY = 2048;
const EVENT_TYPES = [
  'IdentityVerification.Completed',
  'PayslipProcessing.Completed',
  'BankingProcessing.Completed',
  'Brand.New',
  '',
];
// Unroutable deliveries go to workflows per event type, hour and shard (`resource/unrouted/<type>/<hour>/<shard>`),
// started here on this suite's task queue, which no worker polls: in a namespace of the suite's own,
// no other suite's delivery of the same type lands in them (nor they in another suite's).
const temporal = testTemporalConfig(suiteNamespaces.bridgeProperties);
let bridge: RunningBridge;

beforeAll(async () => {
  const config = {
    ...readBridgeConfig({ WEBHOOK_SECRET: SECRET, BRIDGE_MAX_BODY: String(MAX_BODY) }),
    port: 0,
    spoolDir: testDirectory('spool'),
  };
  bridge = await startBridge(config, temporal, { logger: pino({ level: 'silent' }) });
});

afterAll(async () => {
  await bridge?.stop();
});

const hmac = (body: Buffer, secret: string) =>
  createHmac('sha256', Buffer.from(secret, 'utf8')).update(body).digest('base64');
const headerText = fc.string({ unit: fc.constantFrom(...'abcdefABCDEF0123456789+/=-_ .:'.split('')), maxLength: 60 });

const envelopeLike = fc.record({
  webhook_id: fc.oneof(fc.uuid(), fc.string()),
  webhook_name: fc.string(),
  datetime_sent: fc.oneof(fc.constant('2026-11-21T10:00:00Z'), fc.string()),
  external_ref: fc.option(fc.string()),
  event_type: fc.constantFrom(...EVENT_TYPES),
  data: fc.dictionary(fc.string(), fc.jsonValue()),
});

const bodies = fc.oneof(
  fc.uint8Array({ maxLength: 3000 }).map((b) => Buffer.from(b)),
  fc.string({ maxLength: 500 }).map((s) => Buffer.from(s, 'utf8')),
  fc.jsonValue().map((v) => Buffer.from(JSON.stringify(v) ?? 'null', 'utf8')),
  envelopeLike.map((e) => Buffer.from(JSON.stringify(e), 'utf8')),
);

type SignatureChoice = 'valid' | 'none' | 'garbage' | 'other-body' | 'wrong-secret' | 'truncated';
const signatures = fc.constantFrom<SignatureChoice>(
  'valid',
  'valid',
  'none',
  'garbage',
  'other-body',
  'wrong-secret',
  'truncated',
);

function signatureFor(choice: SignatureChoice, body: Buffer, garbage: string): string | undefined {
  switch (choice) {
    case 'valid':
      return hmac(body, SECRET);
    case 'none':
      return undefined;
    case 'garbage':
      return garbage;
    case 'other-body':
      return hmac(Buffer.concat([body, Buffer.from(' ')]), SECRET);
    case 'wrong-secret':
      return hmac(body, 'not-the-secret');
    case 'truncated':
      return hmac(body, SECRET).slice(0, 20);
  }
}

function isJson(body: Buffer): boolean {
  try {
    JSON.parse(body.toString('utf8'));
    return true;
  } catch {
    return false;
  }
}

async function recordedCount(): Promise<number> {
  const values = (await bridge.metrics.deliveries.get()).values;
  return values
    .filter((v) => v.labels.outcome === 'signalled' || v.labels.outcome === 'spooled')
    .reduce((sum, v) => sum + v.value, 0);
}

test('random deliveries: no 5xx, no crash, and only verified JSON is recorded', async () => {
  let expectedRecorded = 0;
  await fc.assert(
    fc.asyncProperty(
      bodies,
      signatures,
      headerText,
      headerText,
      fc.constantFrom('application/json', 'text/plain', 'application/octet-stream', ''),
      async (body, choice, garbage, batch, contentType) => {
        const signature = signatureFor(choice, body, garbage);
        const headers: Record<string, string> = {};
        if (signature !== undefined) headers['x-hmac-sha256-signature'] = signature;
        if (batch) headers['x-batch-correlation-id'] = batch;
        if (contentType) headers['content-type'] = contentType;
        const response = await fetch(bridge.url, { method: 'POST', headers, body });
        await response.arrayBuffer();

        const verified = choice === 'valid';
        const expected = body.length > MAX_BODY ? 413 : !verified ? 401 : !isJson(body) ? 400 : 202;
        if (expected === 202) expectedRecorded++;
        expect(response.status).toBe(expected);
      },
    ),
    { numRuns: 2000, seed: 20261121 },
  );
  expect(await recordedCount()).toBe(expectedRecorded);
  expect(expectedRecorded).toBeGreaterThan(100);
  // The bridge is still up and healthy after all of it.
  expect((await fetch(bridge.url.replace('/webhooks', '/healthz'))).status).toBe(200);
}, 300_000);

test('random bytes with a random 32-byte MAC are refused', async () => {
  for (let i = 0; i < 50; i++) {
    const body = randomBytes(64);
    const response = await fetch(bridge.url, {
      method: 'POST',
      headers: { 'x-hmac-sha256-signature': randomBytes(32).toString('base64') },
      body,
    });
    expect(response.status).toBe(401);
  }
});
