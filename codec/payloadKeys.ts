/**
 * The payload encryption keys: `PAYLOAD_ENCRYPTION_KEYS` (`id1:base64key,id2:base64key`, the first
 * one encrypts, all of them decrypt), or for the embedded default a key generated once under
 * `.data/`. Key material is never echoed in errors.
 */
import { dataPath } from '../config/projectRoot';
import { randomBytes } from 'node:crypto';
import { parseEnvironment } from '../config/environment';
import { embeddedPayloadKeys } from './embeddedKeyFile';
import { KEY_BYTES, payloadKeysVariable, type PayloadKey, type PayloadKeys } from './payloadKeySchema';

export type { PayloadKey, PayloadKeys } from './payloadKeySchema';

export const defaultKeyFile = dataPath('payload-keys.json');

export function readPayloadKeys(env: NodeJS.ProcessEnv = process.env, keyFile = defaultKeyFile): PayloadKeys {
  if (!env.PAYLOAD_ENCRYPTION_KEYS && !env.PAYLOAD_ENCRYPTION_KEYS_FILE) return embeddedPayloadKeys(keyFile);
  return parseEnvironment({ PAYLOAD_ENCRYPTION_KEYS: payloadKeysVariable }, env).PAYLOAD_ENCRYPTION_KEYS;
}

/** The value of `PAYLOAD_ENCRYPTION_KEYS` for these keys (tests hand it to child processes). */
export function formatPayloadKeys(keys: PayloadKeys): string {
  return keys.map((k) => `${k.id}:${k.key.toString('base64')}`).join(',');
}

/** A fresh random key (tests use one per run; the embedded default stores one). */
export function generatePayloadKey(id: string): PayloadKey {
  return { id, key: randomBytes(KEY_BYTES) };
}
