/** API keys as hashes, the configuration that carries them, and the console's signed sessions. */
import { mkdtempSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { apiKeyListSchema, findApiKey, generateApiKey, hashApiKey, mayWaive } from '../../case-api/apiKeys';
import { readCaseApiConfig } from '../../case-api/config';
import { readCaseEventsConfig } from '../../case-events/caseEventsConfig';
import { caseEventId } from '../../case-events/sendCaseEvent';
import {
  createOidcSession,
  createSession,
  csrfToken,
  csrfTokenMatches,
  readSession,
} from '../../case-api/console/session';

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

test('a key entry may carry further roles, which decide who may waive when CASE_API_WAIVE_ROLE is set', () => {
  const [lead, desk] = apiKeyListSchema.parse(`lead:operator+waiver+audit:${hex('a')},desk:operator:${hex('b')}`);
  expect(lead).toMatchObject({ name: 'lead', role: 'operator', roles: ['waiver', 'audit'] });
  expect(desk).toMatchObject({ name: 'desk', role: 'operator', roles: [] });
  expect(mayWaive('waiver', lead!.roles)).toBe(true);
  expect(mayWaive('waiver', desk!.roles)).toBe(false);
  expect(mayWaive(undefined, desk!.roles)).toBe(true);
  expect(() => apiKeyListSchema.parse(`lead:operator+:${hex('a')}`)).toThrow();
});

test('OpenID Connect for the console: all of it or none, each problem naming its variable, never a value', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'case-api-'));
  const read = (env: Record<string, string>) =>
    readCaseApiConfig({ CASE_API_SESSION_SECRET: 'x'.repeat(32), ...env }, path.join(dir, 'keys.json'));
  const full = {
    CONSOLE_OIDC_ISSUER: 'https://id.example.com/realms/ops',
    CONSOLE_OIDC_CLIENT_ID: 'console',
    CONSOLE_OIDC_CLIENT_SECRET: 'oidc-s3cret',
    CONSOLE_OIDC_REDIRECT_URL: 'https://ops.example.com/console/oidc/callback',
  };
  expect(read(full)).toMatchObject({
    oidc: {
      issuer: full.CONSOLE_OIDC_ISSUER,
      clientId: 'console',
      scopes: 'openid profile',
      nameClaim: 'name',
      rolesClaim: 'roles',
      allowHttp: false,
    },
  });
  expect(
    read({ ...full, CONSOLE_OIDC_ROLES_CLAIM: 'realm_access.roles', CASE_API_WAIVE_ROLE: 'case-lead' }),
  ).toMatchObject({ waiveRole: 'case-lead', oidc: { rolesClaim: 'realm_access.roles' } });
  expect(read({}).oidc).toBeUndefined();
  expect(() => read({ CONSOLE_OIDC_ISSUER: full.CONSOLE_OIDC_ISSUER })).toThrow(
    /CONSOLE_OIDC_CLIENT_ID: is required when CONSOLE_OIDC_ISSUER is set/,
  );
  expect(() => read({ ...full, CONSOLE_OIDC_CLIENT_SECRET: '' })).toThrow(/CONSOLE_OIDC_CLIENT_SECRET: is required/);
  expect(() => read({ CONSOLE_OIDC_CLIENT_ID: 'console' })).toThrow(
    /CONSOLE_OIDC_CLIENT_ID: is set but CONSOLE_OIDC_ISSUER is not/,
  );
  expect(() => read({ ...full, CONSOLE_OIDC_ISSUER: 'http://id.example.com' })).toThrow(
    /CONSOLE_OIDC_ISSUER: must be an https URL/,
  );
  expect(read({ ...full, CONSOLE_OIDC_ISSUER: 'http://127.0.0.1:9000' }).oidc?.allowHttp).toBe(true);
  expect(() => read({ ...full, CONSOLE_OIDC_REDIRECT_URL: 'https://ops.example.com/callback' })).toThrow(
    /CONSOLE_OIDC_REDIRECT_URL: must be the case API's public URL of \/console\/oidc\/callback/,
  );
  expect(() => read({ ...full, CONSOLE_OIDC_ISSUER: 'not a url' })).toThrow(/CONSOLE_OIDC_ISSUER/);
  expect(() => read({ CASE_API_WAIVE_ROLE: 'a role' })).toThrow(/CASE_API_WAIVE_ROLE: must be a role name/);
  expect(() => read({ ...full, CONSOLE_OIDC_CLIENT_ID: '' })).not.toThrow(/oidc-s3cret/);
});

test('a wrong CASE_API_KEYS or CASE_EVENTS_* stops with a message naming the variable, never the value', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'case-api-'));
  expect(() =>
    readCaseApiConfig(
      { CASE_API_KEYS: 'ops:admin:abc', CASE_API_SESSION_SECRET: 'x'.repeat(32) },
      path.join(dir, 'keys.json'),
    ),
  ).toThrow(/CASE_API_KEYS\.0: each entry must be <name>:<origination\|operator>\[\+<role>…\]:<sha256 hex of the key>/);
  expect(() =>
    readCaseApiConfig({ CASE_API_PORT: 'http', CASE_API_SESSION_SECRET: 'x'.repeat(32) }, path.join(dir, 'keys.json')),
  ).toThrow(/CASE_API_PORT/);
  expect(() => readCaseEventsConfig({ CASE_EVENTS_URL: 'http://los.example/hooks' })).toThrow(
    /CASE_EVENTS_SECRET: required when CASE_EVENTS_URL is set/,
  );
  expect(() =>
    readCaseEventsConfig({ CASE_EVENTS_URL: 'http://los.example/hooks', CASE_EVENTS_SECRET: 'plain-secret' }),
  ).toThrow(/CASE_EVENTS_SECRET: must be whsec_/);
  expect(() =>
    readCaseEventsConfig({ CASE_EVENTS_URL: 'http://los.example/hooks', CASE_EVENTS_SECRET: 'plain-secret' }),
  ).not.toThrow(/plain-secret/);
  expect(readCaseEventsConfig({})).toEqual({
    url: undefined,
    secret: undefined,
    timeoutMs: 10_000,
    actionDueAfterMs: 86_400_000,
    actionDueEveryMs: 86_400_000,
    attentionSlaMs: 14_400_000,
    evidenceExpiringBeforeMs: 259_200_000,
    sweepIntervalMs: 15_000,
  });
  expect(() => readCaseEventsConfig({ CASE_EVENTS_EVIDENCE_EXPIRING_BEFORE: 'soon' })).toThrow(
    /CASE_EVENTS_EVIDENCE_EXPIRING_BEFORE: must be a duration/,
  );
  expect(() => readCaseEventsConfig({ CASE_EVENTS_SLA_MS: '4 hours' })).toThrow(
    /CASE_EVENTS_SLA_MS: must be a number of milliseconds/,
  );
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

test("an OpenID Connect session carries the operator's identity, name and roles, signed like a key session", () => {
  const secret = 'a'.repeat(40);
  const { session, cookieValue } = createOidcSession(
    secret,
    { identity: 'https://idp.example#ada', name: 'Ada Lovelace', roles: ['operator', 'waiver'] },
    1_000,
  );
  expect(readSession(secret, cookieValue, 2_000)).toEqual({
    ...session,
    kind: 'oidc',
    key: 'https://idp.example#ada',
    name: 'Ada Lovelace',
    roles: ['operator', 'waiver'],
  });
  const [, signature] = cookieValue.split('.');
  const promoted = Buffer.from(JSON.stringify({ ...session, roles: ['waiver'], key: 'Grace Hopper' })).toString(
    'base64url',
  );
  expect(readSession(secret, `${promoted}.${signature}`, 2_000)).toBeNull();
  // A session cookie from before OIDC reads as a key session.
  expect(
    readSession(secret, createSession(secret, { name: 'ops', hash: Buffer.alloc(32, 1) }, 1_000).cookieValue, 2_000),
  ).toMatchObject({ kind: 'key', roles: [] });
});

test('an event id depends on workflow id, run id and sequence only', () => {
  const event = { workflowId: 'case/c1', runId: 'r1', sequence: 3 };
  expect(caseEventId(event)).toBe(caseEventId({ ...event }));
  expect(
    new Set([caseEventId(event), caseEventId({ ...event, sequence: 4 }), caseEventId({ ...event, runId: 'r2' })]).size,
  ).toBe(3);
});
