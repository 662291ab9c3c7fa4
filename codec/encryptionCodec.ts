/**
 * AES-256-GCM payload codec. The whole payload (metadata included, so not even its encoding shows)
 * is serialised and encrypted; the result carries `encoding: binary/encrypted` and the key id.
 * The key id is also the cipher's additional data: moving a payload to another key id fails
 * authentication rather than decrypting under the wrong key. Payloads that are not encrypted (the
 * `json/plain` histories written before encryption) pass through decode unchanged.
 */
import { createCipheriv, createDecipheriv } from 'node:crypto';
import { METADATA_ENCODING_KEY, type Payload, type PayloadCodec } from '@temporalio/common';
import { temporal } from '@temporalio/proto';
import { ivSource } from './ivSource';
import type { PayloadKey, PayloadKeys } from './payloadKeySchema';

export const ENCRYPTED_ENCODING = 'binary/encrypted';
export const KEY_ID_METADATA = 'encryption-key-id';
const IV_BYTES = 12;
const TAG_BYTES = 16;

export class PayloadDecryptionError extends Error {
  override name = 'PayloadDecryptionError';
}

export class EncryptionCodec implements PayloadCodec {
  private readonly encrypting: PayloadKey;
  private readonly byId: ReadonlyMap<string, PayloadKey>;
  private readonly nextIv = ivSource(IV_BYTES);

  constructor(keys: PayloadKeys) {
    this.encrypting = keys[0];
    this.byId = new Map(keys.map((k) => [k.id, k]));
  }

  async encode(payloads: Payload[]): Promise<Payload[]> {
    return payloads.map((payload) => this.encrypt(payload));
  }

  async decode(payloads: Payload[]): Promise<Payload[]> {
    return payloads.map((payload) => (isEncrypted(payload) ? this.decrypt(payload) : payload));
  }

  /** Encrypts at once: the case file seals thousands of values a write, without a promise each. */
  encrypt(payload: Payload): Payload {
    const { id, key } = this.encrypting;
    const iv = this.nextIv();
    const cipher = createCipheriv('aes-256-gcm', key, iv).setAAD(Buffer.from(id, 'utf8'));
    const plaintext = temporal.api.common.v1.Payload.encode(payload).finish();
    const ciphertext = Buffer.concat([cipher.update(plaintext), cipher.final()]);
    return {
      metadata: { [METADATA_ENCODING_KEY]: Buffer.from(ENCRYPTED_ENCODING), [KEY_ID_METADATA]: Buffer.from(id) },
      data: Buffer.concat([iv, ciphertext, cipher.getAuthTag()]),
    };
  }

  /** Decrypts at once (the case file opens its sealed values without a promise each). */
  decrypt(payload: Payload): Payload {
    const id = metadataText(payload, KEY_ID_METADATA);
    if (id === undefined) throw new PayloadDecryptionError(`an encrypted payload has no ${KEY_ID_METADATA} metadata`);
    const entry = this.byId.get(id);
    if (!entry) {
      throw new PayloadDecryptionError(
        `payload encrypted with key id "${id}", which is not among the configured keys (` +
          `${[...this.byId.keys()].join(', ')}); add it to PAYLOAD_ENCRYPTION_KEYS`,
      );
    }
    const data = Buffer.from(payload.data ?? []);
    if (data.length < IV_BYTES + TAG_BYTES)
      throw new PayloadDecryptionError(`encrypted payload under key id "${id}" is truncated`);
    const decipher = createDecipheriv('aes-256-gcm', entry.key, data.subarray(0, IV_BYTES)).setAAD(
      Buffer.from(id, 'utf8'),
    );
    decipher.setAuthTag(data.subarray(data.length - TAG_BYTES));
    let plaintext: Buffer;
    try {
      plaintext = Buffer.concat([decipher.update(data.subarray(IV_BYTES, data.length - TAG_BYTES)), decipher.final()]);
    } catch {
      throw new PayloadDecryptionError(
        `encrypted payload under key id "${id}" failed authentication (altered, ` +
          `or encrypted with another key under that id)`,
      );
    }
    return temporal.api.common.v1.Payload.decode(plaintext);
  }
}

export function isEncrypted(payload: Payload): boolean {
  return metadataText(payload, METADATA_ENCODING_KEY) === ENCRYPTED_ENCODING;
}

function metadataText(payload: Payload, key: string): string | undefined {
  const value = payload.metadata?.[key];
  return value ? Buffer.from(value).toString('utf8') : undefined;
}
