/**
 * The encryption format is pinned: payloads encrypted by an earlier version of the codec
 * (golden/vectors.json, fixed test keys) decrypt to the values they were written from, under the
 * key list of a rotation in either order; an old key removed too early is named; re-encrypting
 * over them moves them to the first key. A change to the IV, tag, AAD or key layout fails here
 * instead of making every stored history unreadable.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { defaultPayloadConverter, type Payload } from '@temporalio/common';
import { EncryptionCodec, KEY_ID_METADATA, PayloadDecryptionError } from '../../codec/encryptionCodec';
import { goldenKeys, type GoldenVector } from './golden/goldenKeys';

const { vectors } = JSON.parse(readFileSync(path.join(__dirname, 'golden', 'vectors.json'), 'utf8')) as {
  vectors: GoldenVector[];
};
const [olderKey, newerKey] = goldenKeys;

function storedPayload(vector: GoldenVector): Payload {
  const metadata = Object.fromEntries(
    Object.entries(vector.encrypted.metadata).map(([k, v]) => [k, Buffer.from(v, 'base64')]),
  );
  return { metadata, data: Buffer.from(vector.encrypted.data, 'base64') };
}

async function decodedValue(codec: EncryptionCodec, vector: GoldenVector): Promise<unknown> {
  const [decoded] = await codec.decode([storedPayload(vector)]);
  return defaultPayloadConverter.fromPayload(decoded as Payload);
}

const keyIdOf = (payload: Payload) => Buffer.from(payload.metadata?.[KEY_ID_METADATA] ?? []).toString('utf8');

test('the committed vectors cover both keys', () => {
  expect(new Set(vectors.map((v) => v.keyId))).toEqual(new Set([olderKey.id, newerKey.id]));
});

test.each(vectors.map((v) => [`${v.name} under ${v.keyId}`, v] as const))(
  '%s decrypts to the value it was written from',
  async (_name, vector) => {
    await expect(decodedValue(new EncryptionCodec(goldenKeys), vector)).resolves.toEqual(vector.value);
    await expect(decodedValue(new EncryptionCodec([newerKey, olderKey]), vector)).resolves.toEqual(vector.value);
  },
);

test('with the older key removed, its vectors are refused naming the key id, the newer ones still decrypt', async () => {
  const codec = new EncryptionCodec([newerKey]);
  for (const vector of vectors) {
    if (vector.keyId === newerKey.id) await expect(decodedValue(codec, vector)).resolves.toEqual(vector.value);
    else
      await expect(decodedValue(codec, vector)).rejects.toThrow(
        new PayloadDecryptionError(
          `payload encrypted with key id "${olderKey.id}", which is not among the configured keys (${newerKey.id}); add it to PAYLOAD_ENCRYPTION_KEYS`,
        ),
      );
  }
});

test('rotation: re-encrypting the stored payloads puts them under the first key, and they decrypt without the old one', async () => {
  const rotating = new EncryptionCodec([newerKey, olderKey]);
  const reencrypted = await rotating.encode(await rotating.decode(vectors.map(storedPayload)));
  expect(new Set(reencrypted.map(keyIdOf))).toEqual(new Set([newerKey.id]));
  const decoded = await new EncryptionCodec([newerKey]).decode(reencrypted);
  expect(decoded.map((p) => defaultPayloadConverter.fromPayload(p))).toEqual(vectors.map((v) => v.value));
});

test('a vector moved to the other key id fails authentication (the key id is bound as additional data)', async () => {
  const vector = vectors.find((v) => v.keyId === olderKey.id) as GoldenVector;
  const moved = {
    ...vector,
    encrypted: {
      ...vector.encrypted,
      metadata: { ...vector.encrypted.metadata, [KEY_ID_METADATA]: Buffer.from(newerKey.id).toString('base64') },
    },
  };
  await expect(decodedValue(new EncryptionCodec(goldenKeys), moved)).rejects.toThrow(/failed authentication/);
});
