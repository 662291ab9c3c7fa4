/**
 * Writes the codec's golden vectors (vectors.json beside this file): payloads encrypted by the
 * codec as it was when they were written, under two fixed test keys, with the values they hold.
 * Run once (`npx tsx test/codec/golden/writeGoldenVectors.ts`) and commit the result; never
 * rewrite it for a new codec: test/codec/goldenVectors.test.ts proves that every later version
 * still decrypts what was stored before it. A new format adds a new file beside this one.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { defaultPayloadConverter, type Payload } from '@temporalio/common';
import { EncryptionCodec } from '../../../codec/encryptionCodec';
import type { PayloadKey } from '../../../codec/payloadKeySchema';
import { goldenKeys, goldenValues, type GoldenVector } from './goldenKeys';

const asBase64 = (bytes: Uint8Array | null | undefined) => Buffer.from(bytes ?? []).toString('base64');

function stored(payload: Payload): GoldenVector['encrypted'] {
  const metadata = Object.fromEntries(Object.entries(payload.metadata ?? {}).map(([k, v]) => [k, asBase64(v)]));
  return { metadata, data: asBase64(payload.data) };
}

async function vectorsUnder(key: PayloadKey): Promise<GoldenVector[]> {
  const codec = new EncryptionCodec([key]);
  return Promise.all(
    goldenValues.map(async ({ name, value }) => {
      const [encrypted] = await codec.encode([defaultPayloadConverter.toPayload(value)]);
      return { name, keyId: key.id, value, encrypted: stored(encrypted as Payload) };
    }),
  );
}

async function main(): Promise<void> {
  const vectors = [...(await vectorsUnder(goldenKeys[0])), ...(await vectorsUnder(goldenKeys[1]))];
  const file = path.join(__dirname, 'vectors.json');
  writeFileSync(file, `${JSON.stringify({ writtenBy: 'codec/encryptionCodec.ts, AES-256-GCM v1 (12-byte IV | ciphertext | 16-byte tag, key id as AAD)', vectors }, null, 2)}\n`);
  console.log(`${vectors.length} vectors written to ${file}`);
}

void main();
