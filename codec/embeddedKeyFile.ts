/**
 * The embedded default's key: generated on first use and kept in `.data/payload-keys.json` (mode
 * 0600), so a restarted stack still decodes the histories in its persistent dev server. The file
 * holds a list, first one encrypting, so a local key can be rotated like a configured one.
 */
import { randomBytes } from 'node:crypto';
import { linkSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { ConfigurationError } from '../worker/environment';
import { KEY_BYTES, payloadKeyListSchema, type PayloadKeys } from './payloadKeySchema';

const keyFileSchema = z.object({ keys: payloadKeyListSchema });

export function embeddedPayloadKeys(file: string): PayloadKeys {
  try {
    return readKeyFile(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  createKeyFile(file);
  return readKeyFile(file);
}

function readKeyFile(file: string): PayloadKeys {
  const text = readFileSync(file, 'utf8');
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

/** Writes a fresh key file; link() makes the create atomic, so two processes starting together agree on one key. */
function createKeyFile(file: string): void {
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const id = `local-${new Date().toISOString().slice(0, 10)}-${randomBytes(3).toString('hex')}`;
  const content = JSON.stringify({ keys: [{ id, key: randomBytes(KEY_BYTES).toString('base64') }] }, null, 1);
  const temporary = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  writeFileSync(temporary, content, { mode: 0o600, flag: 'wx' });
  try {
    linkSync(temporary, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    unlinkSync(temporary);
  }
}
