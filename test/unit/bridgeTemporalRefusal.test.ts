/**
 * What a refusal from Temporal means to the bridge: only an answer that says Temporal is away, or a
 * failed cheap probe, makes it "down"; a signal that timed out or was cancelled is that workflow's
 * trouble while the probe answers.
 */
import { classifyRefusal } from '../../webhook-bridge/temporalRefusal';
import { TemporalHealth } from '../../webhook-bridge/temporalHealth';

const grpcError = (code: number) => Object.assign(new Error(`${code} refused`), { code });
const answering = () => new TemporalHealth({ probe: async () => {} });
const silent = () =>
  new TemporalHealth({
    probe: async () => {
      throw grpcError(14);
    },
  });

test.each([
  ['UNAVAILABLE', 14],
  ['NOT_FOUND (namespace)', 5],
  ['UNAUTHENTICATED', 16],
  ['PERMISSION_DENIED', 7],
])('%s says Temporal is away, without a probe', async (_name, code) => {
  let probes = 0;
  const health = new TemporalHealth({ probe: async () => void probes++ });
  expect(await health.judge(classifyRefusal(grpcError(code)))).toBe('unavailable');
  expect(health.down).toBe(true);
  expect(probes).toBe(0);
});

test.each([
  ['DEADLINE_EXCEEDED', 4],
  ['CANCELLED', 1],
])('%s while the probe answers is the workflow’s trouble, not Temporal’s', async (_name, code) => {
  expect(classifyRefusal(grpcError(code)).kind).toBe('uncertain');
  const health = answering();
  expect(await health.judge(classifyRefusal(grpcError(code)))).toBe('resource');
  expect(health.down).toBe(false);
  expect(health.state).toBe('reachable');
});

test('a timeout with a failing probe is Temporal away', async () => {
  const health = silent();
  expect(await health.judge(classifyRefusal(grpcError(4)))).toBe('unavailable');
  expect(health.down).toBe(true);
  expect(health.state).toBe('unreachable');
});

test('an error with no gRPC status (no connection) is confirmed by the probe', async () => {
  expect(await silent().judge(classifyRefusal(new Error('connect ECONNREFUSED')))).toBe('unavailable');
  expect(await answering().judge(classifyRefusal(new Error('a converter bug')))).toBe('resource');
});

test('INVALID_ARGUMENT is permanent; other codes are the resource’s', async () => {
  expect(await answering().judge(classifyRefusal(grpcError(3)))).toBe('permanent');
  for (const code of [6, 8, 9, 10, 13]) expect(await silent().judge(classifyRefusal(grpcError(code)))).toBe('resource');
});

test('a burst of timeouts shares one probe', async () => {
  let probes = 0;
  let release = () => {};
  const health = new TemporalHealth({
    probe: () => {
      probes++;
      return new Promise<void>((resolve) => (release = resolve));
    },
  });
  const verdicts = Promise.all(Array.from({ length: 20 }, () => health.judge(classifyRefusal(grpcError(4)))));
  release();
  expect(await verdicts).toEqual(Array.from({ length: 20 }, () => 'resource'));
  expect(probes).toBe(1);
});

test('the state read for /readyz never waits for a probe; it refreshes in the background', async () => {
  let release = () => {};
  const health = new TemporalHealth({
    probe: () => new Promise<void>((_resolve, reject) => (release = () => reject(grpcError(14)))),
  });
  expect(health.current()).toBe('unknown');
  release();
  await health.settled();
  expect(health.current()).toBe('unreachable');
});
