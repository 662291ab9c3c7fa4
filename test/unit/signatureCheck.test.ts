/** A signature is never refused only because the provider did not answer. */
import { createHmac } from 'node:crypto';
import { SecretRing } from '../../webhook-bridge/secretRing';
import { checkHeldSignature, checkSignature } from '../../webhook-bridge/signatureCheck';

const body = Buffer.from('{"event_type":"X"}');
const signed = (secret: string) => createHmac('sha256', Buffer.from(secret, 'utf8')).update(body).digest('base64');
const ignore = () => undefined;

function providerRing() {
  let atProvider: string | Error = 'whsec-a';
  const ring = new SecretRing({
    readFromProvider: async () => {
      if (atProvider instanceof Error) throw atProvider;
      return atProvider;
    },
    minRefreshIntervalMs: 0,
  });
  return { ring, setProvider: (value: string | Error) => (atProvider = value) };
}

test('before the first read, a signed delivery is pending and an unsigned one refused', async () => {
  const { ring } = providerRing();
  expect(await checkSignature(ring, body, signed('whsec-a'), true, ignore)).toEqual({ ok: false, reason: 'pending' });
  expect(await checkSignature(ring, body, null, true, ignore)).toEqual({ ok: false, reason: 'missing' });
});

test('a rotation the provider cannot tell us about yet: pending, then verified once it answers', async () => {
  const { ring, setProvider } = providerRing();
  await ring.load();
  expect(await checkSignature(ring, body, signed('whsec-a'), true, ignore)).toMatchObject({ ok: true, signed: true });
  setProvider(new Error('Provider answered 503'));
  const errors: unknown[] = [];
  expect(await checkSignature(ring, body, signed('whsec-b'), true, (e) => errors.push(e))).toEqual({
    ok: false,
    reason: 'pending',
  });
  expect(errors).toHaveLength(1);
  setProvider('whsec-b');
  expect(await checkHeldSignature(ring, body, signed('whsec-b'), ignore)).toBe('verified');
});

test('a provider that answers and has no such secret: the signature is a mismatch, a kept one tampered', async () => {
  const { ring } = providerRing();
  await ring.load();
  expect(await checkSignature(ring, body, signed('forged'), true, ignore)).toEqual({ ok: false, reason: 'mismatch' });
  expect(await checkHeldSignature(ring, body, signed('forged'), ignore)).toBe('tampered');
});

test('configured secrets never wait for anyone', async () => {
  const ring = new SecretRing({ current: 'whsec-c' });
  expect(await checkSignature(ring, body, signed('forged'), true, ignore)).toEqual({ ok: false, reason: 'mismatch' });
});

test('deliveries signed with a rotated secret arriving together all wait for the one read, none refused', async () => {
  // Found by the fault suite's rotation case: with the once-a-minute limit, the deliveries that came
  // while the first one's read was under way were refused as mismatches.
  let atProvider = 'whsec-a';
  let reads = 0;
  const ring = new SecretRing({
    readFromProvider: async () => {
      reads++;
      await new Promise((resolve) => setTimeout(resolve, 20));
      return atProvider;
    },
    minRefreshIntervalMs: 60_000,
  });
  await ring.load();
  atProvider = 'whsec-b';
  const verdicts = await Promise.all(
    Array.from({ length: 6 }, () => checkSignature(ring, body, signed('whsec-b'), true, ignore)),
  );
  expect(verdicts.map((v) => v.ok)).toEqual([true, true, true, true, true, true]);
  expect(reads).toBe(2);
  // The old secret stays valid through the grace period: late deliveries signed with it pass.
  expect(await checkSignature(ring, body, signed('whsec-a'), true, ignore)).toMatchObject({ ok: true, signed: true });
  // And a delivery signed with neither is still refused.
  expect(await checkSignature(ring, body, signed('whsec-x'), true, ignore)).toEqual(
    expect.objectContaining({ ok: false, reason: 'mismatch' }),
  );
});
