/**
 * The shape of payload keys and of `PAYLOAD_ENCRYPTION_KEYS` (`id1:base64key,id2:base64key`).
 * Messages name what is wrong, never the key material.
 */
import { z } from 'zod';

export interface PayloadKey {
  /** Written into each payload's metadata so a decoder picks the right key after rotation. */
  id: string;
  /** 32 bytes: AES-256. */
  key: Buffer;
}

/** At least one key; the first encrypts. */
export type PayloadKeys = readonly [PayloadKey, ...PayloadKey[]];

export const KEY_BYTES = 32;
const keyIdPattern = /^[A-Za-z0-9._-]{1,64}$/;

export const payloadKeySchema = z.object({
  id: z.string().regex(keyIdPattern, 'key ids are 1–64 letters, digits, dots, dashes or underscores'),
  key: z
    .string({ error: 'each entry must be id:base64key' })
    .pipe(z.base64('must be Base64'))
    .transform((b64) => Buffer.from(b64, 'base64'))
    .refine((bytes) => bytes.length === KEY_BYTES, `must decode to ${KEY_BYTES} bytes (AES-256)`),
});

export const payloadKeyListSchema = z
  .array(payloadKeySchema)
  .min(1, 'needs at least one key')
  .refine((keys) => new Set(keys.map((k) => k.id)).size === keys.length, 'key ids must be unique')
  .transform((keys) => keys as unknown as PayloadKeys);

/** `id:base64,id:base64` → keys; messages name the entry's position, never its value. */
export const payloadKeysVariable = z
  .string()
  .transform((value) =>
    value
      .split(',')
      .map((entry) => entry.trim())
      .filter(Boolean)
      .map((entry) => {
        const colon = entry.indexOf(':');
        return colon < 0 ? { id: entry } : { id: entry.slice(0, colon), key: entry.slice(colon + 1) };
      }),
  )
  .pipe(payloadKeyListSchema);
