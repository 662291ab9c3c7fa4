/**
 * The case file's sealing (case-file/fieldCipher.ts) follows the payload codec's keys: a value
 * records its key id, opens under any configured key after a rotation, and an altered value or an
 * unknown key id is refused rather than read.
 */
import { temporal } from '@temporalio/proto';
import { payloadKeyCipher } from '../../case-file/fieldCipher';
import { generatePayloadKey } from '../../codec/payloadKeys';

const plaintext = Buffer.from('Ada Lovelace, sort code 12-34-56');
const old = generatePayloadKey('old-key');
const current = generatePayloadKey('current-key');

test('a sealed value hides its plaintext and opens again', () => {
  const cipher = payloadKeyCipher([old]);
  const sealed = cipher.seal(plaintext);
  expect(sealed.includes(plaintext)).toBe(false);
  expect(sealed.includes(Buffer.from('old-key'))).toBe(true);
  expect(cipher.open(sealed)).toEqual(plaintext);
});

test('after a rotation, values sealed with the old key open and new ones use the current key', () => {
  const sealedBefore = payloadKeyCipher([old]).seal(plaintext);
  const rotated = payloadKeyCipher([current, old]);
  expect(rotated.open(sealedBefore)).toEqual(plaintext);
  const sealedAfter = rotated.seal(plaintext);
  expect(sealedAfter.includes(Buffer.from('current-key'))).toBe(true);
  expect(() => payloadKeyCipher([old]).open(sealedAfter)).toThrow(/current-key.*not among the configured keys/);
});

test('an altered value is refused', () => {
  const cipher = payloadKeyCipher([current]);
  const sealed = cipher.seal(plaintext);
  sealed[sealed.length - 1]! ^= 1;
  expect(() => cipher.open(sealed)).toThrow(/failed authentication/);
});

test('thousands of values sealed at once each have a nonce of their own, across nonce blocks', () => {
  const cipher = payloadKeyCipher([current]);
  const sealed = Array.from({ length: 2_000 }, () => cipher.seal(plaintext));
  // Each sealed value carries its 12-byte nonce at the start of the encrypted payload's data.
  const nonces = new Set(sealed.map((value) => nonceOf(value)));
  expect(nonces.size).toBe(sealed.length);
  expect(sealed.every((value) => cipher.open(value).equals(plaintext))).toBe(true);
});

function nonceOf(sealed: Buffer): string {
  const { data } = temporal.api.common.v1.Payload.decode(sealed);
  return Buffer.from(data!).subarray(0, 12).toString('hex');
}
