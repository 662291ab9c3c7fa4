/** CODEC_SERVER_* and the embedded default's token file. */
import { mkdtempSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { readCodecServerConfig } from '../../codec/codecServerConfig';
import { ConfigurationError } from '../../config/environment';

const dir = mkdtempSync(path.join(os.tmpdir(), 'codec-config-'));
const tokenFile = (name: string) => path.join(dir, name, 'codec-server-token');

test('defaults: port 8888, the embedded UI origins, a token generated once (0600) and reused', () => {
  const file = tokenFile('default');
  const config = readCodecServerConfig({}, file);
  expect(config).toMatchObject({ port: 8888, allowedOrigins: ['http://127.0.0.1:8233', 'http://localhost:8233'] });
  expect(config.token).toMatch(/^[A-Za-z0-9_-]{32}$/);
  expect(statSync(file).mode & 0o777).toBe(0o600);
  expect(readCodecServerConfig({}, file).token).toBe(config.token);
});

test('configured values win, origins are normalised', () => {
  const config = readCodecServerConfig(
    {
      CODEC_SERVER_PORT: '9999',
      CODEC_SERVER_TOKEN: 'a-long-enough-token-123',
      CODEC_SERVER_CORS_ORIGINS: 'https://ui.example.com/, http://127.0.0.1:8080',
    },
    tokenFile('configured'),
  );
  expect(config).toMatchObject({
    port: 9999,
    token: 'a-long-enough-token-123',
    allowedOrigins: ['https://ui.example.com', 'http://127.0.0.1:8080'],
  });
  expect(() => statSync(tokenFile('configured'))).toThrow();
});

test.each([
  ['CODEC_SERVER_PORT', 'eighty'],
  ['CODEC_SERVER_TOKEN', 'short'],
  ['CODEC_SERVER_TOKEN', 'has spaces in it, which cannot go in a path'],
  ['CODEC_SERVER_CORS_ORIGINS', 'ftp://files.example.com'],
  ['CODEC_SERVER_MAX_BODY', '5'],
])('a bad %s stops the process with a message naming it, never echoing the value', (variable, value) => {
  let error: unknown;
  try {
    readCodecServerConfig({ [variable]: value }, tokenFile('bad'));
  } catch (e) {
    error = e;
  }
  expect(error).toBeInstanceOf(ConfigurationError);
  expect((error as Error).message).toContain(variable);
  expect((error as Error).message).not.toContain(value);
});
