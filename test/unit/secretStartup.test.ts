/** The first read of the secret from the provider is retried in the background. */
import { SecretRing } from '../../webhook-bridge/secretRing';

test('the first read is retried until the provider answers, and listeners hear when the secret is known', async () => {
  let calls = 0;
  const ring = new SecretRing({
    readFromProvider: async () => {
      calls++;
      if (calls < 3) throw new Error('Provider answered 503');
      return 'whsec-1';
    },
  });
  expect(ring.known).toBe(false);
  const failures: number[] = [];
  const known = new Promise<void>((resolve) => ring.onKnown(resolve));
  ring.startLoading({ initialMs: 5, maxMs: 20 }, (_error, retryInMs) => failures.push(retryInMs));
  await known;
  expect(ring.known).toBe(true);
  expect(ring.secrets()).toEqual(['whsec-1']);
  expect(failures).toEqual([5, 10]);
  ring.stop();
});

test('a provider that has no secret (404) counts as an answer: the secrets are known, and empty', async () => {
  const ring = new SecretRing({ readFromProvider: async () => null });
  const known = new Promise<void>((resolve) => ring.onKnown(resolve));
  ring.startLoading({ initialMs: 5, maxMs: 20 }, () => undefined);
  await known;
  expect(ring.secrets()).toEqual([]);
});

test('stop ends the retries', async () => {
  let calls = 0;
  const ring = new SecretRing({
    readFromProvider: async () => {
      calls++;
      throw new Error('down');
    },
  });
  // Jest's clock: the retry timer's whole future is run at once instead of waited out.
  jest.useFakeTimers();
  try {
    let failures = 0;
    const firstFailure = new Promise<void>((resolve) =>
      ring.startLoading({ initialMs: 5, maxMs: 5 }, () => (++failures === 1 ? resolve() : undefined)),
    );
    await firstFailure;
    expect(jest.getTimerCount()).toBe(1);
    ring.stop();
    const after = calls;
    await jest.advanceTimersByTimeAsync(60_000);
    expect(calls).toBe(after);
    expect(jest.getTimerCount()).toBe(0);
    expect(ring.known).toBe(false);
  } finally {
    jest.useRealTimers();
  }
});

test('configured secrets are known from the start', () => {
  const ring = new SecretRing({ current: 'a' });
  expect(ring.known).toBe(true);
});
