/**
 * Secrets as files: a process reads `<NAME>_FILE` (a Docker or Kubernetes secret's path) when
 * `<NAME>` is unset, so compose.yaml never puts a secret in a container's environment.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { ConfigurationError, parseEnvironment } from '../../config/environment';
import { readTemporalConfig } from '../../config/temporalConfig';
import { formatPayloadKeys, generatePayloadKey, readPayloadKeys } from '../../codec/payloadKeys';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'secret-file-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function secretFile(name: string, contents: string): string {
  const file = path.join(dir, name);
  writeFileSync(file, contents, { mode: 0o600 });
  return file;
}

const shape = { WEBHOOK_SECRET: z.string().min(1).optional() };

test('an unset variable is read from the file its _FILE names, without the trailing newline', () => {
  const env = { WEBHOOK_SECRET_FILE: secretFile('webhook_secret', 'from-the-file\n') };
  expect(parseEnvironment(shape, env).WEBHOOK_SECRET).toBe('from-the-file');
});

test('a variable that is set wins over its _FILE', () => {
  const env = { WEBHOOK_SECRET: 'from-the-env', WEBHOOK_SECRET_FILE: secretFile('webhook_secret', 'from-the-file') };
  expect(parseEnvironment(shape, env).WEBHOOK_SECRET).toBe('from-the-env');
});

test('a _FILE that cannot be read is a configuration error naming the variable', () => {
  const env = { WEBHOOK_SECRET_FILE: path.join(dir, 'missing') };
  expect(() => parseEnvironment(shape, env)).toThrow(ConfigurationError);
  expect(() => parseEnvironment(shape, env)).toThrow(/WEBHOOK_SECRET_FILE: cannot read .*missing \(ENOENT\)/);
});

test('a bad value from a file is reported under its variable and never echoed', () => {
  const env = { CASE_API_SESSION_SECRET_FILE: secretFile('session', 'too-short-secret-value') };
  const sessionShape = { CASE_API_SESSION_SECRET: z.string().min(32, 'must be at least 32 characters') };
  expect(() => parseEnvironment(sessionShape, env)).toThrow(/CASE_API_SESSION_SECRET: must be at least 32/);
  expect(() => parseEnvironment(sessionShape, env)).not.toThrow(/too-short-secret-value/);
});

test('the payload keys come from PAYLOAD_ENCRYPTION_KEYS_FILE, not a generated key file', () => {
  const keys = [generatePayloadKey('filed')] as const;
  const env = { PAYLOAD_ENCRYPTION_KEYS_FILE: secretFile('payload_keys', `${formatPayloadKeys(keys)}\n`) };
  const read = readPayloadKeys(env, path.join(dir, 'generated-keys.json'));
  expect(read.map((k) => k.id)).toEqual(['filed']);
  expect(read[0].key.equals(keys[0].key)).toBe(true);
});

test("Temporal's API key comes from TEMPORAL_API_KEY_FILE", () => {
  const env = {
    TEMPORAL_ADDRESS: '127.0.0.1:7233',
    TEMPORAL_CONFIG_FILE: path.join(dir, 'no-such-temporal.toml'),
    TEMPORAL_API_KEY_FILE: secretFile('temporal_api_key', 'api-key-from-file\n'),
  };
  expect(readTemporalConfig(env).apiKey).toBe('api-key-from-file');
});
