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

/**
 * What the store needs of the keys: seal bytes for storage, open them again. Synchronous: a banking
 * read seals one value per transaction, thousands a write, and a promise each would cost more
 * than the cipher.
 */
export interface FieldCipher {
  seal(plaintext: Buffer): Buffer;
  open(sealed: Buffer): Buffer;
}

export function payloadKeyCipher(keys: PayloadKeys): FieldCipher {
  const codec = new EncryptionCodec(keys);
  return {
    seal(plaintext) {
      return Buffer.from(Payload.encode(codec.encrypt({ data: plaintext })).finish());
    },
    open(sealed) {
      const payload = Payload.decode(sealed);
      // A sealed value is always encrypted: one that is not was altered, never passed through.
      if (!isEncrypted(payload)) throw new PayloadDecryptionError('a sealed case-file value is not encrypted');
      return Buffer.from(codec.decrypt(payload).data ?? []);
    },
  };
}
