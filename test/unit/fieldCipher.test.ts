/**
 * The case file's sealing (case-file/fieldCipher.ts) follows the payload codec's keys: a value
 * records its key id, opens under any configured key after a rotation, and an altered value or an
 * unknown key id is refused rather than read.
 */
import { payloadKeyCipher } from '../../case-file/fieldCipher';
import { generatePayloadKey } from '../../codec/payloadKeys';

const plaintext = Buffer.from('Ada Lovelace, sort code 12-34-56');
const old = generatePayloadKey('old-key');
const current = generatePayloadKey('current-key');

test('a sealed value hides its plaintext and opens again', async () => {
  const cipher = payloadKeyCipher([old]);
  const sealed = await cipher.seal(plaintext);
  expect(sealed.includes(plaintext)).toBe(false);
  expect(sealed.includes(Buffer.from('old-key'))).toBe(true);
  expect(await cipher.open(sealed)).toEqual(plaintext);
});

test('after a rotation, values sealed with the old key open and new ones use the current key', async () => {
  const sealedBefore = await payloadKeyCipher([old]).seal(plaintext);
  const rotated = payloadKeyCipher([current, old]);
  expect(await rotated.open(sealedBefore)).toEqual(plaintext);
  const sealedAfter = await rotated.seal(plaintext);
  expect(sealedAfter.includes(Buffer.from('current-key'))).toBe(true);
  await expect(payloadKeyCipher([old]).open(sealedAfter)).rejects.toThrow(/current-key.*not among the configured keys/);
});

test('an altered value is refused', async () => {
  const cipher = payloadKeyCipher([current]);
  const sealed = await cipher.seal(plaintext);
  sealed[sealed.length - 1]! ^= 1;
  await expect(cipher.open(sealed)).rejects.toThrow(/failed authentication/);
});
