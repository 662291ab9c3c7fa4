import { SecretRing } from '../../webhook-bridge/secretRing';
import { verifySignature } from '../../webhook-bridge/verifySignature';

// From the openssl table in verifySignature.test.ts.
const body = Buffer.from('{"event_type":"IdentityVerification.Completed"}', 'utf8');
const signedWithPrevious = 'AS6er+EMTOzzLYOcZcCWQ3LtwydVh2bgZhP2SlcGbus=';

describe('SecretRing', () => {
  test('the previous secret is accepted during the grace period and refused after it', () => {
    let now = 1_000;
    const ring = new SecretRing({
      current: 'whsec-current',
      previous: 'whsec-previous',
      previousValidUntil: 2_000,
      now: () => now,
    });
    expect(verifySignature(body, signedWithPrevious, ring.secrets())).toMatchObject({ ok: true, secretIndex: 1 });
    now = 2_000;
    expect(ring.secrets()).toEqual(['whsec-current']);
    expect(verifySignature(body, signedWithPrevious, ring.secrets())).toEqual({ ok: false, reason: 'mismatch' });
  });

  test('a rotation read from the provider keeps the old secret for the grace period', async () => {
    let now = 0;
    let atProvider = 'whsec-previous';
    const ring = new SecretRing({
      readFromProvider: async () => atProvider,
      graceMs: 500,
      minRefreshIntervalMs: 60_000,
      now: () => now,
    });
    expect(await ring.refresh()).toBe(true);
    expect(ring.secrets()).toEqual(['whsec-previous']);

    atProvider = 'whsec-current';
    now = 30_000;
    expect(await ring.refresh()).toBe(false); // at most once a minute
    now = 60_000;
    expect(await ring.refresh()).toBe(true);
    expect(ring.secrets()).toEqual(['whsec-current', 'whsec-previous']);
    expect(verifySignature(body, signedWithPrevious, ring.secrets()).ok).toBe(true);
    now = 60_500;
    expect(ring.secrets()).toEqual(['whsec-current']);
  });

  test('concurrent refreshes read the provider once', async () => {
    let reads = 0;
    const ring = new SecretRing({ readFromProvider: async () => `secret-${++reads}` });
    await Promise.all([ring.refresh(), ring.refresh(), ring.refresh()]);
    expect(reads).toBe(1);
  });
});
