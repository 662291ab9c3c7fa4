/**
 * Delivery isolation on the recorder alone, with a scripted Temporal (a function that accepts or
 * refuses with a gRPC status code) and a real spool on disk: order per resource, dead letters,
 * torn files, deliveries kept until a secret is known.
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { resourceWorkflowId } from '../../provider';
import { DeadLetterStore } from '../../webhook-bridge/deadLetters';
import { DeliveryRecorder, routeSpooled, type IncomingDelivery } from '../../webhook-bridge/deliveryRecorder';
import { createBridgeMetrics } from '../../webhook-bridge/metrics';
import { workflowIdsOf, type RoutedDelivery } from '../../webhook-bridge/routeDelivery';
import { Spool } from '../../webhook-bridge/spool';
import { envelope, idvCompleted } from '../support/deliveries';

const grpcError = (code: number) => Object.assign(new Error(`${code} refused`), { code });
type Script = (workflowIds: string[]) => number | undefined;

interface Harness {
  recorder: DeliveryRecorder;
  spool: Spool;
  deadLetters: DeadLetterStore;
  metrics: ReturnType<typeof createBridgeMetrics>;
  accepted: string[];
  setScript(script: Script): void;
  setVerdict(verdict: 'verified' | 'tampered' | 'pending'): void;
}

let harnesses: Harness[] = [];
afterEach(async () => {
  for (const h of harnesses) await h.recorder.stop();
  harnesses = [];
});

/** A recorder whose Temporal answers by `script`: a gRPC code to refuse with, or undefined to accept. */
function harness(
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'recorder-unit-')),
  initial: Script = () => undefined,
): Harness {
  let script = initial;
  let verdict: 'verified' | 'tampered' | 'pending' = 'pending';
  const accepted: string[] = [];
  const metrics = createBridgeMetrics();
  const spool = new Spool(dir, {
    resourcesOf: (r) => workflowIdsOf(routeSpooled(r)),
    onQuarantine: () => metrics.spoolQuarantined.inc(),
  });
  const deadLetters = new DeadLetterStore(dir);
  const recorder = new DeliveryRecorder({
    signal: async (routed: RoutedDelivery) => {
      const code = script(workflowIdsOf(routed));
      if (code !== undefined) throw grpcError(code);
      accepted.push(...workflowIdsOf(routed));
    },
    spool,
    deadLetters,
    verifyHeld: async () => verdict,
    spoolLimit: 1000,
    metrics,
    logger: pino({ level: 'silent' }),
    backoff: { initialMs: 5, maxMs: 20 },
  });
  const h = {
    recorder,
    spool,
    deadLetters,
    metrics,
    accepted,
    setScript: (s: Script) => (script = s),
    setVerdict: (v: typeof verdict) => (verdict = v),
  };
  harnesses.push(h);
  return h;
}

function idvDelivery(requestId = randomUUID(), pendingSignature?: string): IncomingDelivery & { workflowId: string } {
  const raw = envelope('IdentityVerification.Completed', idvCompleted(requestId));
  return {
    raw: Buffer.from(raw),
    body: JSON.parse(raw),
    batchId: randomUUID(),
    receivedAt: new Date().toISOString(),
    workflowId: resourceWorkflowId({ kind: 'idv', id: requestId }),
    pendingSignature: pendingSignature || undefined,
  };
}

const metricValue = async (h: Harness, name: string) =>
  (await h.metrics.registry.getSingleMetricAsString(name)).match(/ (\d+)$/m)?.[1];

test('a delivery refused with INVALID_ARGUMENT is dead-lettered at once; the next one is signalled', async () => {
  const poison = idvDelivery();
  const h = harness(undefined, (ids) => (ids.includes(poison.workflowId) ? 3 : undefined));
  expect((await h.recorder.record(poison)).outcome).toBe('dead_lettered');
  const good = idvDelivery();
  expect((await h.recorder.record(good)).outcome).toBe('signalled');
  expect(h.accepted).toEqual([good.workflowId]);
  expect(h.deadLetters.list()).toMatchObject([
    { grpcCode: 3, workflowIds: [poison.workflowId], bytes: poison.raw.length },
  ]);
  expect(h.recorder.spoolDepth).toBe(0);
});

test('in the spool, a poison delivery is dead-lettered and the ones behind it drain', async () => {
  const poison = idvDelivery();
  const goods = [idvDelivery(), idvDelivery()];
  const h = harness(undefined, () => 14);
  for (const d of [poison, ...goods]) expect((await h.recorder.record(d)).outcome).toBe('spooled');
  h.setScript((ids) => (ids.includes(poison.workflowId) ? 3 : undefined));
  await h.recorder.drained();
  expect(h.accepted).toEqual(goods.map((g) => g.workflowId));
  expect(h.deadLetters.list().map((l) => l.workflowIds[0])).toEqual([poison.workflowId]);
  expect(await metricValue(h, 'bridge_spool_drained_total')).toBe('2');
});

test('a resource whose delivery Temporal keeps refusing waits alone; order is kept within it', async () => {
  const stuck = randomUUID();
  const first = idvDelivery(stuck);
  const second = idvDelivery(stuck);
  const other = idvDelivery();
  let refuse = true;
  const h = harness(undefined, (ids) => (refuse && ids.includes(first.workflowId) ? 8 : undefined));
  expect((await h.recorder.record(first)).outcome).toBe('spooled');
  // Same resource: queued behind the first, never overtaking it.
  expect((await h.recorder.record(second)).outcome).toBe('spooled');
  // Another resource: straight through.
  expect((await h.recorder.record(other)).outcome).toBe('signalled');
  expect(h.accepted).toEqual([other.workflowId]);
  refuse = false;
  await h.recorder.drained();
  expect(h.accepted).toEqual([other.workflowId, first.workflowId, first.workflowId]);
});

test('while Temporal does not answer at all, new deliveries go straight to the spool', async () => {
  const asked: string[] = [];
  const h = harness(undefined, (ids) => {
    asked.push(...ids);
    return 14;
  });
  const first = idvDelivery();
  const second = idvDelivery();
  expect((await h.recorder.record(first)).outcome).toBe('spooled');
  expect((await h.recorder.record(second)).outcome).toBe('spooled');
  // Neither the recorder nor the drain (which stops at the first UNAVAILABLE) asked for the second.
  expect(asked).not.toContain(second.workflowId);
  expect(asked).toContain(first.workflowId);
  h.setScript(() => undefined);
  await h.recorder.drained();
  expect(h.accepted).toEqual([first.workflowId, second.workflowId]);
});

test('a torn spool file found at start is quarantined; the drain goes on, with no unhandled rejection', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'recorder-torn-'));
  const first = harness(dir, () => 14);
  const torn = idvDelivery();
  const good = idvDelivery();
  await first.recorder.record(torn);
  await first.recorder.record(good);
  await first.recorder.stop();
  const [tornFile] = first.spool.entries();
  fs.writeFileSync(path.join(dir, tornFile!.name), '{"seq":1,"receivedAt":"2026');

  const rejections: unknown[] = [];
  const onRejection = (reason: unknown) => rejections.push(reason);
  process.on('unhandledRejection', onRejection);
  try {
    const restarted = harness(dir);
    await restarted.recorder.drained();
    expect(restarted.accepted).toEqual([good.workflowId]);
    expect(await metricValue(restarted, 'bridge_spool_quarantined_total')).toBe('1');
    expect(fs.readdirSync(path.join(dir, 'quarantine'))).toEqual([tornFile!.name]);
  } finally {
    process.off('unhandledRejection', onRejection);
  }
  expect(rejections).toEqual([]);
});

test('a file torn while the bridge runs is quarantined by the drain, which goes on', async () => {
  const h = harness(undefined, () => 14);
  const torn = idvDelivery();
  const good = idvDelivery();
  await h.recorder.record(torn);
  await h.recorder.record(good);
  fs.writeFileSync(path.join(h.spool.dir, h.spool.entries()[0]!.name), 'garbage');
  h.setScript(() => undefined);
  h.recorder.nudge();
  await h.recorder.drained();
  expect(h.accepted).toEqual([good.workflowId]);
  expect(await metricValue(h, 'bridge_spool_quarantined_total')).toBe('1');
});

test('a delivery kept before a secret was known waits, then is signalled once verified, or dropped as tampered', async () => {
  const h = harness();
  const genuine = idvDelivery(undefined, 'sig-genuine');
  expect((await h.recorder.record(genuine)).outcome).toBe('held');
  const other = idvDelivery();
  // A held delivery blocks only its own resource.
  expect((await h.recorder.record(other)).outcome).toBe('signalled');
  expect(h.accepted).toEqual([other.workflowId]);
  h.setVerdict('verified');
  h.recorder.nudge();
  await h.recorder.drained();
  expect(h.accepted).toEqual([other.workflowId, genuine.workflowId]);

  h.setVerdict('tampered');
  const forged = idvDelivery(undefined, 'sig-forged');
  expect((await h.recorder.record(forged)).outcome).toBe('held');
  await h.recorder.drained();
  expect(h.accepted).not.toContain(forged.workflowId);
  expect(await metricValue(h, 'bridge_tampered_total')).toBe('1');
});

test('a spool that cannot be written is answered unavailable, never recorded as spooled', async () => {
  const h = harness(undefined, () => 14);
  jest.spyOn(fs, 'writeSync').mockImplementation((() => 0) as typeof fs.writeSync);
  try {
    expect((await h.recorder.record(idvDelivery())).outcome).toBe('unavailable');
  } finally {
    jest.restoreAllMocks();
  }
  expect(h.recorder.spoolDepth).toBe(0);
});
