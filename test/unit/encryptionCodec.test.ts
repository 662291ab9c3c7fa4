/** The payload codec: round trip, tamper refusal, unknown key ids, rotation, plain pass-through. */
import { defaultPayloadConverter, METADATA_ENCODING_KEY, type Payload } from '@temporalio/common';
import {
  EncryptionCodec,
  ENCRYPTED_ENCODING,
  KEY_ID_METADATA,
  PayloadDecryptionError,
} from '../../codec/encryptionCodec';
import { generatePayloadKey } from '../../codec/payloadKeys';

const oldKey = generatePayloadKey('2026-01');
const newKey = generatePayloadKey('2026-06');
const value = { personId: 'p-4411', company: 'Acme Widgets Ltd', score: 712 };
const plain = (v: unknown): Payload => defaultPayloadConverter.toPayload(v);
const text = (p: Payload, key: string) => Buffer.from(p.metadata?.[key] ?? []).toString('utf8');

test('a payload round-trips, and its ciphertext shows neither the value nor the encoding', async () => {
  const codec = new EncryptionCodec([newKey]);
  const [encrypted] = (await codec.encode([plain(value)])) as [Payload];
  expect(text(encrypted, METADATA_ENCODING_KEY)).toBe(ENCRYPTED_ENCODING);
  expect(text(encrypted, KEY_ID_METADATA)).toBe('2026-06');
  expect(Object.keys(encrypted.metadata ?? {}).sort()).toEqual([METADATA_ENCODING_KEY, KEY_ID_METADATA].sort());
  const bytes = Buffer.from(encrypted.data ?? []).toString('latin1');
  for (const needle of ['Acme', 'p-4411', 'json/plain']) expect(bytes).not.toContain(needle);
  const [decoded] = (await codec.decode([encrypted])) as [Payload];
  expect(defaultPayloadConverter.fromPayload(decoded)).toEqual(value);
});

test('the same value encrypts differently each time (fresh IV)', async () => {
  const codec = new EncryptionCodec([newKey]);
  const [a, b] = (await codec.encode([plain(value), plain(value)])) as [Payload, Payload];
  expect(Buffer.from(a.data!).equals(Buffer.from(b.data!))).toBe(false);
});

test('altered ciphertext is refused', async () => {
  const codec = new EncryptionCodec([newKey]);
  const [encrypted] = (await codec.encode([plain(value)])) as [Payload];
  const data = Buffer.from(encrypted.data!);
  data[20] = (data[20] ?? 0) ^ 0x01;
  await expect(codec.decode([{ ...encrypted, data }])).rejects.toThrow(/failed authentication/);
});

test('a payload moved to another key id is refused, not decrypted under the wrong key', async () => {
  const sameBytesOtherId = { id: 'other', key: newKey.key };
  const codec = new EncryptionCodec([newKey, sameBytesOtherId]);
  const [encrypted] = (await codec.encode([plain(value)])) as [Payload];
  const relabelled = { ...encrypted, metadata: { ...encrypted.metadata, [KEY_ID_METADATA]: Buffer.from('other') } };
  await expect(codec.decode([relabelled])).rejects.toThrow(/failed authentication/);
});

test('an unknown key id is refused with an error that names it and the configured ids', async () => {
  const [encrypted] = (await new EncryptionCodec([oldKey]).encode([plain(value)])) as [Payload];
  const error = await new EncryptionCodec([newKey]).decode([encrypted]).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(PayloadDecryptionError);
  expect((error as Error).message).toBe(
    'payload encrypted with key id "2026-01", which is not among the configured keys (2026-06); add it to PAYLOAD_ENCRYPTION_KEYS',
  );
});

test('key rotation: old payloads decode after a new key is added in front, and new payloads use the new key', async () => {
  const [underOld] = (await new EncryptionCodec([oldKey]).encode([plain(value)])) as [Payload];
  const rotated = new EncryptionCodec([newKey, oldKey]);
  const [decodedOld] = (await rotated.decode([underOld])) as [Payload];
  expect(defaultPayloadConverter.fromPayload(decodedOld)).toEqual(value);
  const [underNew] = (await rotated.encode([plain(value)])) as [Payload];
  expect(text(underNew, KEY_ID_METADATA)).toBe('2026-06');
  // Once the old key is removed, what it encrypted no longer decodes: remove a key only after its histories are gone.
  await expect(new EncryptionCodec([newKey]).decode([underOld])).rejects.toThrow(/key id "2026-01"/);
  expect(defaultPayloadConverter.fromPayload((await new EncryptionCodec([newKey]).decode([underNew]))[0]!)).toEqual(
    value,
  );
});

test('payloads that are not encrypted (json/plain histories) pass through decode unchanged', async () => {
  const payloads = [plain(value), plain(null), plain(new Uint8Array([1, 2, 3]))];
  expect(await new EncryptionCodec([newKey]).decode(payloads)).toEqual(payloads);
});
