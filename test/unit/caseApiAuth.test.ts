/** API keys as hashes, the configuration that carries them, and the console's signed sessions. */
import { mkdtempSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { apiKeyListSchema, findApiKey, generateApiKey, hashApiKey } from '../../case-api/apiKeys';
import { readCaseApiConfig } from '../../case-api/config';
import { readCaseEventsConfig } from '../../case-events/caseEventsConfig';
import { caseEventId } from '../../case-events/sendCaseEvent';
import { createSession, csrfToken, csrfTokenMatches, readSession } from '../../case-api/console/session';

const hex = (key: string) => hashApiKey(key).toString('hex');

test('CASE_API_KEYS holds hashes with a role; a presented key is found by its hash only', () => {
  const operator = generateApiKey('operator');
  const origination = generateApiKey('origination');
  const keys = apiKeyListSchema.parse(`ops:operator:${hex(operator)}, los:origination:${hex(origination)}`);
  expect(findApiKey(keys, operator)).toMatchObject({ name: 'ops', role: 'operator' });
  expect(findApiKey(keys, origination)).toMatchObject({ name: 'los', role: 'origination' });
  expect(findApiKey(keys, `${operator}x`)).toBeNull();
  expect(findApiKey(keys, hex(operator))).toBeNull();
});

test('a wrong CASE_API_KEYS or CASE_EVENTS_* stops with a message naming the variable, never the value', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'case-api-'));
  expect(() => readCaseApiConfig({ CASE_API_KEYS: 'ops:admin:abc', CASE_API_SESSION_SECRET: 'x'.repeat(32) }, path.join(dir, 'keys.json'))).toThrow(/CASE_API_KEYS\.0: each entry must be <name>:<origination\|operator>:<sha256 hex of the key>/);
  expect(() => readCaseApiConfig({ CASE_API_PORT: 'http', CASE_API_SESSION_SECRET: 'x'.repeat(32) }, path.join(dir, 'keys.json'))).toThrow(/CASE_API_PORT/);
  expect(() => readCaseEventsConfig({ CASE_EVENTS_URL: 'http://los.example/hooks' })).toThrow(/CASE_EVENTS_SECRET: required when CASE_EVENTS_URL is set/);
  expect(() => readCaseEventsConfig({ CASE_EVENTS_URL: 'http://los.example/hooks', CASE_EVENTS_SECRET: 'plain-secret' })).toThrow(/CASE_EVENTS_SECRET: must be whsec_/);
  expect(() => readCaseEventsConfig({ CASE_EVENTS_URL: 'http://los.example/hooks', CASE_EVENTS_SECRET: 'plain-secret' })).not.toThrow(/plain-secret/);
  expect(readCaseEventsConfig({})).toEqual({ url: undefined, secret: undefined, timeoutMs: 10_000, actionDueAfterMs: 86_400_000, actionDueEveryMs: 86_400_000, attentionSlaMs: 14_400_000, sweepIntervalMs: 15_000 });
  expect(() => readCaseEventsConfig({ CASE_EVENTS_SLA_MS: '4 hours' })).toThrow(/CASE_EVENTS_SLA_MS: must be a number of milliseconds/);
});

test('without CASE_API_KEYS, one key per role is generated once into a 0600 file and only hashes are kept', () => {
  const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'case-api-')), 'keys.json');
  const env = { CASE_API_SESSION_SECRET: 'x'.repeat(32) };
  const first = readCaseApiConfig(env, file);
  const again = readCaseApiConfig(env, file);
  expect(first.keyFile).toBe(file);
  expect(statSync(file).mode & 0o777).toBe(0o600);
  expect(first.keys.map((k) => k.role).sort()).toEqual(['operator', 'origination']);
  expect(again.keys.map((k) => k.hash.toString('hex'))).toEqual(first.keys.map((k) => k.hash.toString('hex')));
  expect(JSON.stringify(first)).not.toContain('vj_');
});

test('a console session is refused when forged, altered or expired; its CSRF token is its own', () => {
  const secret = 'a'.repeat(40);
  const ops = { name: 'ops', hash: Buffer.alloc(32, 1) };
  const { session, cookieValue } = createSession(secret, ops, 1_000);
  expect(readSession(secret, cookieValue, 2_000)).toEqual(session);
  expect(readSession('b'.repeat(40), cookieValue, 2_000)).toBeNull();
  const [payload, signature] = cookieValue.split('.');
  const altered = Buffer.from(JSON.stringify({ ...session, key: 'someone-else' })).toString('base64url');
  expect(readSession(secret, `${altered}.${signature}`, 2_000)).toBeNull();
  expect(readSession(secret, `${payload}.${signature}`, session.exp + 1)).toBeNull();
  expect(readSession(secret, undefined)).toBeNull();
  expect(csrfTokenMatches(secret, session, csrfToken(secret, session))).toBe(true);
  const other = createSession(secret, ops).session;
  expect(csrfTokenMatches(secret, session, csrfToken(secret, other))).toBe(false);
  expect(csrfTokenMatches(secret, session, undefined)).toBe(false);
});

test('an event id depends on workflow id, run id and sequence only', () => {
  const event = { workflowId: 'case/c1', runId: 'r1', sequence: 3 };
  expect(caseEventId(event)).toBe(caseEventId({ ...event }));
  expect(new Set([caseEventId(event), caseEventId({ ...event, sequence: 4 }), caseEventId({ ...event, runId: 'r2' })]).size).toBe(3);
});
