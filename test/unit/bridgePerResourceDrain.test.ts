/**
 * The spool drains per resource: a workflow whose signals time out or are refused waits with a
 * backoff of its own, and the deliveries of every other resource go past it, in order per
 * resource. The recorder runs on a real spool with a scripted Temporal (each signal answered by
 * a function of the workflow ids) and a probe that says whether Temporal as a whole answers.
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
import { workflowIdsOf } from '../../webhook-bridge/routeDelivery';
import { Spool } from '../../webhook-bridge/spool';
import { TemporalHealth } from '../../webhook-bridge/temporalHealth';
import { envelope, idvCompleted } from '../support/deliveries';
import { waitUntil } from '../support/waitUntil';

const grpcError = (code: number) => Object.assign(new Error(`${code} refused`), { code });
/** A signal's answer: resolves (taken) or rejects (refused), possibly after a while. */
type Script = (workflowId: string) => Promise<void>;

let recorders: DeliveryRecorder[] = [];
afterEach(async () => {
  for (const r of recorders) await r.stop();
  recorders = [];
});

function harness(initial: Script) {
  let script = initial;
  let temporalUp = true;
  const accepted: string[] = [];
  const attempts = new Map<string, number>();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'per-resource-drain-'));
  const metrics = createBridgeMetrics();
  const recorder = new DeliveryRecorder({
    signal: async (routed) => {
      for (const id of workflowIdsOf(routed)) {
        attempts.set(id, (attempts.get(id) ?? 0) + 1);
        await script(id);
        accepted.push(id);
      }
    },
    spool: new Spool(dir, { resourcesOf: (r) => workflowIdsOf(routeSpooled(r)) }),
    deadLetters: new DeadLetterStore(dir),
    verifyHeld: async () => 'verified',
    spoolLimit: 1000,
    metrics,
    logger: pino({ level: 'silent' }),
    backoff: { initialMs: 20, maxMs: 10_000 },
    temporal: new TemporalHealth({
      probe: async () => {
        if (!temporalUp) throw grpcError(14);
      },
    }),
  });
  recorders.push(recorder);
  return {
    recorder,
    accepted,
    attempts,
    metrics,
    setScript: (s: Script) => void (script = s),
    setTemporalUp: (up: boolean) => void (temporalUp = up),
  };
}

function delivery(requestId: string = randomUUID()): IncomingDelivery & { workflowId: string } {
  const raw = envelope('IdentityVerification.Completed', idvCompleted(requestId));
  return {
    raw: Buffer.from(raw),
    body: JSON.parse(raw),
    batchId: randomUUID(),
    receivedAt: new Date().toISOString(),
    workflowId: resourceWorkflowId({ kind: 'idv', id: requestId }),
  };
}

const refuse = (code: number) => () => Promise.reject(grpcError(code));
const accept = () => Promise.resolve();

test.each([
  ['times out (DEADLINE_EXCEEDED)', 4],
  ['is cancelled (CANCELLED)', 1],
  ['is refused (RESOURCE_EXHAUSTED)', 8],
])(
  'a workflow whose signal %s waits alone: the 3 healthy deliveries spooled behind it are delivered',
  async (_name, code) => {
    // Temporal away: everything is spooled, the troubled workflow's delivery first.
    const h = harness(refuse(14));
    h.setTemporalUp(false);
    const troubled = delivery();
    const healthy = [delivery(), delivery(), delivery()];
    for (const d of [troubled, ...healthy]) expect((await h.recorder.record(d)).outcome).toBe('spooled');
    // Temporal back, but one workflow keeps failing.
    h.setScript((id) => (id === troubled.workflowId ? Promise.reject(grpcError(code)) : accept()));
    h.setTemporalUp(true);
    await waitUntil('the healthy deliveries', () => healthy.every((d) => h.accepted.includes(d.workflowId)));
    expect(h.recorder.spoolDepth).toBe(1);
    // Its own backoff (20 ms doubling): a handful of attempts in half a second, not one per pass.
    const before = h.attempts.get(troubled.workflowId) ?? 0;
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect((h.attempts.get(troubled.workflowId) ?? 0) - before).toBeLessThanOrEqual(6);
    // A new delivery to a healthy resource goes straight through; one to the troubled one queues.
    const fresh = delivery();
    expect((await h.recorder.record(fresh)).outcome).toBe('signalled');
    expect((await h.recorder.record(delivery(troubled.workflowId.split('/')[2]))).outcome).toBe('spooled');
    // The workflow recovers: its deliveries drain, in order.
    h.setScript(accept);
    h.recorder.nudge();
    await h.recorder.drained();
    expect(h.accepted.filter((id) => id === troubled.workflowId)).toHaveLength(2);
  },
);

test('a signal that hangs holds back no other resource while it is in flight', async () => {
  let release: (error: Error) => void = () => {};
  const slow = delivery();
  const h = harness(refuse(14));
  h.setTemporalUp(false);
  const others = [delivery(), delivery(), delivery()];
  for (const d of [slow, ...others]) await h.recorder.record(d);
  h.setScript((id) => (id === slow.workflowId ? new Promise((_resolve, reject) => (release = reject)) : accept()));
  h.setTemporalUp(true);
  try {
    await waitUntil('the others, while the slow one hangs', () =>
      others.every((d) => h.accepted.includes(d.workflowId)),
    );
    expect(h.accepted).not.toContain(slow.workflowId);
  } finally {
    release(grpcError(4));
  }
  h.setScript(accept);
  h.recorder.nudge();
  await h.recorder.drained();
  expect(h.accepted).toContain(slow.workflowId);
});

test('order is kept per resource while another resource waits', async () => {
  const a = randomUUID();
  const b = randomUUID();
  const h = harness(refuse(14));
  h.setTemporalUp(false);
  const [a1, b1, a2, b2] = [delivery(a), delivery(b), delivery(a), delivery(b)];
  for (const d of [a1!, b1!, a2!, b2!]) await h.recorder.record(d);
  let aFailures = 3;
  h.setScript((id) => (id === a1!.workflowId && aFailures-- > 0 ? Promise.reject(grpcError(4)) : accept()));
  h.setTemporalUp(true);
  await h.recorder.drained();
  const order = h.accepted.map((id) => (id === a1!.workflowId ? 'a' : 'b'));
  // B goes past A's trouble; A's two deliveries arrive one after the other, never the second first.
  expect(order).toEqual(['b', 'b', 'a', 'a']);
  // One refused while Temporal was away, three timeouts, then a1 and a2.
  expect(h.attempts.get(a1!.workflowId)).toBe(6);
});

test('while the probe fails, the drain waits for Temporal without trying a signal per entry', async () => {
  const h = harness(refuse(4));
  h.setTemporalUp(false);
  const spooled = [delivery(), delivery(), delivery()];
  for (const d of spooled) expect((await h.recorder.record(d)).outcome).toBe('spooled');
  await new Promise((resolve) => setTimeout(resolve, 300));
  // Only the first delivery was ever tried (by the recorder); the drain asked the probe instead.
  expect([...h.attempts.keys()]).toEqual([spooled[0]!.workflowId]);
  h.setScript(accept);
  h.setTemporalUp(true);
  await h.recorder.drained();
  expect(h.accepted).toEqual(spooled.map((d) => d.workflowId));
});
