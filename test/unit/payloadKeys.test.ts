/** PAYLOAD_ENCRYPTION_KEYS and the embedded default's key file. */
import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { formatPayloadKeys, generatePayloadKey, readPayloadKeys } from '../../codec/payloadKeys';
import { ConfigurationError } from '../../config/environment';

const dir = mkdtempSync(path.join(os.tmpdir(), 'payload-keys-'));
const b64 = (n: number, fill = 7) => Buffer.alloc(n, fill).toString('base64');

test('keys are read in order, the first one encrypting', () => {
  const keys = readPayloadKeys({ PAYLOAD_ENCRYPTION_KEYS: `new:${b64(32, 1)}, old:${b64(32, 2)}` });
  expect(keys.map((k) => k.id)).toEqual(['new', 'old']);
  expect(keys[0].key.equals(Buffer.alloc(32, 1))).toBe(true);
});

test('formatPayloadKeys writes what readPayloadKeys reads', () => {
  const keys = [generatePayloadKey('a'), generatePayloadKey('b')] as const;
  const read = readPayloadKeys({ PAYLOAD_ENCRYPTION_KEYS: formatPayloadKeys(keys) });
  expect(read.map((k) => [k.id, k.key.toString('hex')])).toEqual(keys.map((k) => [k.id, k.key.toString('hex')]));
});

test.each([
  ['a key of the wrong length', `k1:${b64(16)}`, /must decode to 32 bytes/],
  ['a key that is not Base64', 'k1:not*base64', /must be Base64/],
  ['an entry without a key', 'k1', /each entry must be id:base64key/],
  ['a duplicate id', `k1:${b64(32)},k1:${b64(32, 3)}`, /key ids must be unique/],
  ['an id with spaces', `my key:${b64(32)}`, /key ids are/],
  ['no entries', ' , ', /at least one key/],
])('%s fails fast, naming the variable and never echoing the key', (_name, value, message) => {
  let error: unknown;
  try {
    readPayloadKeys({ PAYLOAD_ENCRYPTION_KEYS: value }, path.join(dir, 'unused.json'));
  } catch (e) {
    error = e;
  }
  expect(error).toBeInstanceOf(ConfigurationError);
  expect((error as Error).message).toMatch(/PAYLOAD_ENCRYPTION_KEYS/);
  expect((error as Error).message).toMatch(message);
  const keyPart = value.split(',')[0]!.split(':')[1];
  if (keyPart && keyPart.length > 8) expect((error as Error).message).not.toContain(keyPart);
});

test('the embedded default generates a key once, mode 0600, and reuses it', () => {
  const file = path.join(dir, 'nested', 'payload-keys.json');
  const first = readPayloadKeys({}, file);
  expect(statSync(file).mode & 0o777).toBe(0o600);
  const again = readPayloadKeys({}, file);
  expect(again.map((k) => [k.id, k.key.toString('hex')])).toEqual(first.map((k) => [k.id, k.key.toString('hex')]));
  expect(first[0].key).toHaveLength(32);
});

test('a configured value wins over the key file', () => {
  const file = path.join(dir, 'ignored.json');
  const keys = readPayloadKeys({ PAYLOAD_ENCRYPTION_KEYS: `ops:${b64(32)}` }, file);
  expect(keys.map((k) => k.id)).toEqual(['ops']);
  expect(() => statSync(file)).toThrow();
});

test('a damaged key file stops the process with a message naming the file', () => {
  const file = path.join(dir, 'damaged.json');
  writeFileSync(file, JSON.stringify({ keys: [{ id: 'x', key: b64(5) }] }));
  expect(() => readPayloadKeys({}, file)).toThrow(ConfigurationError);
  expect(() => readPayloadKeys({}, file)).toThrow(/damaged\.json holds no valid payload keys[\s\S]*32 bytes/);
  expect(readFileSync(file, 'utf8')).toContain('"x"');
});
