/**
 * The embedded default's key: generated on first use and kept in `.data/payload-keys.json` (mode
 * 0600), so a restarted stack still decodes the histories in its persistent dev server. The file
 * holds a list, first one encrypting, so a local key can be rotated like a configured one.
 */
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { ConfigurationError } from '../config/environment';
import { KEY_BYTES, payloadKeyListSchema, type PayloadKeys } from './payloadKeySchema';
import { readOrCreateSecretFile } from './secretFile';

const keyFileSchema = z.object({ keys: payloadKeyListSchema });

export function embeddedPayloadKeys(file: string): PayloadKeys {
  const text = readOrCreateSecretFile(file, newKeyFile);
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw new ConfigurationError(`${file} is not JSON; fix it or set PAYLOAD_ENCRYPTION_KEYS`);
  }
  const parsed = keyFileSchema.safeParse(raw);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigurationError(`${file} holds no valid payload keys:\n${lines.join('\n')}`);
  }
  return parsed.data.keys;
}

function newKeyFile(): string {
  const id = `local-${new Date().toISOString().slice(0, 10)}-${randomBytes(3).toString('hex')}`;
  return JSON.stringify({ keys: [{ id, key: randomBytes(KEY_BYTES).toString('base64') }] }, null, 1);
}
