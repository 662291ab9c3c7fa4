/**
 * Encryption of what the case file holds of the provider's data and the applicant's documents, with
 * the payload keys Temporal's codec uses (codec/encryptionCodec.ts): the same AES-256-GCM, a value
 * records its key id, any configured key decrypts, the first one encrypts. A sealed value is the
 * codec's encrypted payload serialised (protobuf), stored as bytea.
 */
import { temporal } from '@temporalio/proto';
import { EncryptionCodec, isEncrypted, PayloadDecryptionError } from '../codec/encryptionCodec';
import type { PayloadKeys } from '../codec/payloadKeySchema';

const { Payload } = temporal.api.common.v1;

/** What the store needs of the keys: seal bytes for storage, open them again. */
export interface FieldCipher {
  seal(plaintext: Buffer): Promise<Buffer>;
  open(sealed: Buffer): Promise<Buffer>;
}

export function payloadKeyCipher(keys: PayloadKeys): FieldCipher {
  const codec = new EncryptionCodec(keys);
  return {
    async seal(plaintext) {
      const [encrypted] = await codec.encode([{ data: plaintext }]);
      return Buffer.from(Payload.encode(encrypted!).finish());
    },
    async open(sealed) {
      const payload = Payload.decode(sealed);
      // A sealed value is always encrypted: one that is not was altered, never passed through.
      if (!isEncrypted(payload)) throw new PayloadDecryptionError('a sealed case-file value is not encrypted');
      const [decrypted] = await codec.decode([payload]);
      return Buffer.from(decrypted!.data ?? []);
    },
  };
}
