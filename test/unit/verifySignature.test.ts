/**
 * Signature vectors computed independently of the code under test, with
 * `printf '%s' BODY | openssl dgst -sha256 -hmac SECRET -binary | base64`.
 */
import { verifySignature } from '../../webhook-bridge/verifySignature';

const current = 'whsec-current';
const previous = 'whsec-previous';

const vectors = [
  {
    name: 'ASCII',
    body: '{"event_type":"IdentityVerification.Completed"}',
    current: 'RnpWZ+3MNGN/ZQ3LXbEt4FmiLMlGxYBj+QP22xF3RNg=',
    previous: 'AS6er+EMTOzzLYOcZcCWQ3LtwydVh2bgZhP2SlcGbus=',
  },
  {
    name: 'multi-byte UTF-8',
    body: '{"name":"Zoë Ångström","city":"München"}',
    current: 'kg94Tk6R6nI2/t/2PpPVDURjR75xeVJ3dK11pmmj6zU=',
    previous: '/T2Hz/FX7a90yzkyjnHD5e5Sspnac5TDE/Wv0SjDqZc=',
  },
  {
    name: 'emoji',
    body: '{"note":"✅ approved 🎉"}',
    current: 'pNRv88VD89gssWIU4tJb8KVM6zVyTQDKuGiUzfVRmKY=',
    previous: '+uSD057qL177MgqgUWA/LvsoeOMXy4O+FkT5pMABhCY=',
  },
];

const raw = (s: string) => Buffer.from(s, 'utf8');

describe('verifySignature', () => {
  test.each(vectors)('accepts a $name body signed with the current secret', (v) => {
    expect(verifySignature(raw(v.body), v.current, [current, previous])).toEqual({
      ok: true,
      signed: true,
      secretIndex: 0,
    });
  });

  test.each(vectors)('accepts a $name body signed with the previous secret during rotation', (v) => {
    expect(verifySignature(raw(v.body), v.previous, [current, previous])).toEqual({
      ok: true,
      signed: true,
      secretIndex: 1,
    });
  });

  test.each(vectors)('refuses a $name body signed with the previous secret once it is retired', (v) => {
    expect(verifySignature(raw(v.body), v.previous, [current])).toEqual({ ok: false, reason: 'mismatch' });
  });

  test('keys the HMAC with the secret as UTF-8', () => {
    expect(verifySignature(raw('x'), '3JPtpPgiooLWYsF2vteSFJPgLpf7mvTF2ebcj+tBAnM=', ['sécret-ü']).ok).toBe(true);
  });

  const [ascii] = vectors as [(typeof vectors)[number]];
  test.each([
    ['one changed byte', ascii.body.replace('Completed', 'Completes'), ascii.current, 'mismatch'],
    ['a re-serialised body', JSON.stringify(JSON.parse(ascii.body), null, 1), ascii.current, 'mismatch'],
    ['whitespace added', `${ascii.body}\n`, ascii.current, 'mismatch'],
    ['a truncated header', ascii.body, ascii.current.slice(0, 20), 'malformed'],
    ['a non-Base64 header', ascii.body, '!!!!not-base64!!!!!!!!!!!!!!!!!!!!!!!!!!!!!', 'malformed'],
    ['a 31-byte MAC', ascii.body, Buffer.alloc(31, 7).toString('base64'), 'malformed'],
    ['an empty header', ascii.body, '', 'missing'],
  ])('refuses %s', (_name, body, header, reason) => {
    expect(verifySignature(raw(body), header, [current, previous])).toEqual({ ok: false, reason });
  });

  test('refuses the wrong secret', () => {
    expect(verifySignature(raw(ascii.body), ascii.current, ['another-secret'])).toEqual({
      ok: false,
      reason: 'mismatch',
    });
  });

  test('refuses a missing header when a secret is configured', () => {
    expect(verifySignature(raw(ascii.body), undefined, [current])).toEqual({ ok: false, reason: 'missing' });
  });

  test('accepts unsigned deliveries when no secret exists, unless signatures are required', () => {
    expect(verifySignature(raw(ascii.body), undefined, [])).toEqual({ ok: true, signed: false });
    expect(verifySignature(raw(ascii.body), undefined, [], true)).toEqual({ ok: false, reason: 'missing' });
  });
});
