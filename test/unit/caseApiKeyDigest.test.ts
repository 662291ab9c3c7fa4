/**
 * CASE_API_KEYS holds digests an operator computes as the README says, `printf %s "$KEY" |
 * sha256sum`, not with the product's own function: a key configured that way is found, with its
 * role, and so is the FIPS 180-2 test vector for "abc" written out by hand.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { findApiKey, generateApiKey } from '../../case-api/apiKeys';
import { readCaseApiConfig } from '../../case-api/config';

const keyFile = () => path.join(mkdtempSync(path.join(os.tmpdir(), 'case-api-digest-')), 'keys.json');
const sessionSecret = { CASE_API_SESSION_SECRET: 'x'.repeat(32) };

/** The digest as the README tells an operator to compute it. */
const sha256sum = (key: string) =>
  execFileSync('sh', ['-c', 'printf %s "$KEY" | sha256sum'], { env: { PATH: process.env.PATH, KEY: key } })
    .toString()
    .split(' ')[0];

test('a key configured by its sha256sum digest is found, with its role', () => {
  const operator = generateApiKey('operator');
  const origination = generateApiKey('origination');
  const config = readCaseApiConfig(
    {
      ...sessionSecret,
      CASE_API_KEYS: `ops:operator:${sha256sum(operator)},los:origination:${sha256sum(origination)}`,
    },
    keyFile(),
  );
  expect(findApiKey(config.keys, operator)).toMatchObject({ name: 'ops', role: 'operator' });
  expect(findApiKey(config.keys, origination)).toMatchObject({ name: 'los', role: 'origination' });
  expect(findApiKey(config.keys, 'not-a-configured-key')).toBeNull();
});

test('the digest of "abc" from FIPS 180-2, written by hand, configures the key "abc"', () => {
  const digest = 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad';
  expect(sha256sum('abc')).toBe(digest);
  const config = readCaseApiConfig({ ...sessionSecret, CASE_API_KEYS: `vector:origination:${digest}` }, keyFile());
  expect(findApiKey(config.keys, 'abc')).toMatchObject({ name: 'vector', role: 'origination' });
});

test('a digest taken with a trailing newline (echo instead of printf %s) matches no key', () => {
  const key = generateApiKey('operator');
  const withNewline = execFileSync('sh', ['-c', 'echo "$KEY" | sha256sum'], {
    env: { PATH: process.env.PATH, KEY: key },
  })
    .toString()
    .split(' ')[0];
  expect(withNewline).not.toBe(sha256sum(key));
  const config = readCaseApiConfig({ ...sessionSecret, CASE_API_KEYS: `ops:operator:${withNewline}` }, keyFile());
  expect(findApiKey(config.keys, key)).toBeNull();
});
