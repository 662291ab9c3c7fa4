/**
 * Console sign-in and sign-out over real HTTP without Temporal: a signed-out session stays signed
 * out when the case API restarts (the case file remembers it), and failed sign-ins count per client
 * address and per operator name, so one client's failures lock out neither another client nor
 * another operator, while guessing one operator's key from many addresses is still limited.
 */
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { Client, Connection } from '@temporalio/client';
import pino from 'pino';
import { generateApiKey, hashApiKey, type ApiKeyEntry } from '../../case-api/apiKeys';
import { createCaseApiApp } from '../../case-api/app';
import { CaseGateway } from '../../case-api/caseGateway';
import type { CaseApiConfig } from '../../case-api/config';
import { consoleRouter } from '../../case-api/console/consoleRouter';
import { SESSION_COOKIE, createOidcSession, csrfToken, readSession, signValue } from '../../case-api/console/session';
import { isSessionRevoked, recordRevokedSession } from '../../case-file/consoleSessionRecords';
import type { CaseFileStore } from '../../case-file/store';
import { testCaseFile } from '../setup/testEnvironment';

const secret = 'r'.repeat(40);
const opsKey = generateApiKey('operator');
const leadKey = generateApiKey('operator');
const keys: ApiKeyEntry[] = [
  { name: 'ops', role: 'operator', hash: hashApiKey(opsKey) },
  { name: 'lead', role: 'operator', hash: hashApiKey(leadKey) },
];
// A lazy connection to nowhere: these routes never reach Temporal.
const client = new Client({ connection: Connection.lazy({ address: '127.0.0.1:1' }) });
const servers: Server[] = [];
let caseFile: CaseFileStore;

beforeAll(async () => {
  caseFile = await testCaseFile();
});

afterAll(async () => {
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  await client.connection.close();
  await caseFile?.close();
});

/** A case API process of its own (its own memory), on the run's case file unless told otherwise. */
async function api(overrides: Partial<CaseApiConfig> = {}, store: CaseFileStore | undefined = caseFile) {
  const config: CaseApiConfig = {
    port: 0,
    keys,
    maxBodyBytes: 4096,
    rateLimitPerMinute: 1000,
    sessionSecret: secret,
    ...overrides,
  };
  const gateway = new CaseGateway(client, 'q', store);
  const app = createCaseApiApp(config, gateway, pino({ level: 'silent' }), [
    consoleRouter(config, gateway, { namespace: 'default' }),
  ]);
  const server = app.listen(0, '127.0.0.1');
  servers.push(server);
  await new Promise((resolve) => server.once('listening', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function signIn(base: string, form: { key: string; name?: string }, headers: Record<string, string> = {}) {
  return fetch(`${base}/console/login`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: base, ...headers },
    body: new URLSearchParams(form).toString(),
  }).then(async (r) => {
    await r.body?.cancel();
    return r;
  });
}

const sessionCookie = (response: Response) => (response.headers.get('set-cookie') ?? '').split(';')[0]!;

/** A console action without its CSRF token: 403 with a live session, 401 without one. */
const actionStatus = (base: string, cookie: string) =>
  fetch(`${base}/console/cases/c1/cancel`, {
    method: 'POST',
    redirect: 'manual',
    headers: { cookie, origin: base, 'content-type': 'application/x-www-form-urlencoded' },
    body: '',
  }).then((r) => r.status);

async function signOut(base: string, cookie: string): Promise<number> {
  const session = readSession(secret, cookie.slice(SESSION_COOKIE.length + 1))!;
  const answer = await fetch(`${base}/console/logout`, {
    method: 'POST',
    redirect: 'manual',
    headers: { cookie, origin: base, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ csrf: csrfToken(secret, session) }).toString(),
  });
  return answer.status;
}

const from = (address: string) => ({ 'x-forwarded-for': address });
const statuses = async (n: number, call: () => Promise<Response>) => {
  const out: number[] = [];
  for (let i = 0; i < n; i++) out.push((await call()).status);
  return out;
};

test('a signed-out session stays signed out after the case API restarts, and on every other API process', async () => {
  const first = await api();
  const signedIn = await signIn(first, { key: opsKey });
  const cookie = sessionCookie(signedIn);
  expect(await actionStatus(first, cookie)).toBe(403);
  const other = await api();
  expect(await actionStatus(other, cookie)).toBe(403);

  expect(await signOut(first, cookie)).toBe(303);
  expect(await actionStatus(first, cookie)).toBe(401);
  // Another process, and a process started after the sign-out, refuse the stolen cookie too.
  expect(await actionStatus(other, cookie)).toBe(401);
  const restarted = await api();
  expect(await actionStatus(restarted, cookie)).toBe(401);
  // Another session of the same key is not affected.
  const fresh = sessionCookie(await signIn(restarted, { key: opsKey }));
  expect(await actionStatus(restarted, fresh)).toBe(403);
});

test('without a case file, the API process itself remembers a sign-out', async () => {
  const base = await api({}, undefined);
  const cookie = sessionCookie(await signIn(base, { key: opsKey }));
  expect(await signOut(base, cookie)).toBe(303);
  expect(await actionStatus(base, cookie)).toBe(401);
});

test("one client's failed sign-ins lock out neither another operator named with their key nor another client", async () => {
  // Behind a proxy that is not trusted, every client has the proxy's address: one bad client there.
  const base = await api({ signInFailureLimit: 2 });
  const keyAlone = () => signIn(base, { key: generateApiKey('operator') });
  expect(await statuses(3, keyAlone)).toEqual([401, 401, 429]);
  expect((await signIn(base, { key: generateApiKey('operator'), name: 'ops' })).status).toBe(401);
  // The key alone from that address now waits; an operator who names themselves signs in.
  expect((await signIn(base, { key: leadKey, name: 'lead' })).status).toBe(303);
  expect((await signIn(base, { key: opsKey, name: 'ops' })).status).toBe(303);

  // Behind a trusted proxy: failures from one client leave another client's sign-in alone.
  const proxied = await api({ signInFailureLimit: 2, trustProxy: 'loopback' });
  const guess = () => signIn(proxied, { key: generateApiKey('operator'), name: 'ops' }, from('203.0.113.7'));
  expect(await statuses(3, guess)).toEqual([401, 401, 429]);
  expect((await signIn(proxied, { key: opsKey, name: 'ops' }, from('203.0.113.7'))).status).toBe(429);
  expect((await signIn(proxied, { key: opsKey, name: 'ops' }, from('203.0.113.8'))).status).toBe(303);
  expect((await signIn(proxied, { key: leadKey, name: 'lead' }, from('203.0.113.7'))).status).toBe(303);
});

test("guessing one operator's key from many addresses is limited for that operator alone", async () => {
  const base = await api({ signInFailureLimit: 2, trustProxy: 'loopback' });
  // Each address stays under its own limit; the operator's name has five times as many in all.
  let address = 0;
  const guess = () => signIn(base, { key: generateApiKey('operator'), name: 'ops' }, from(`198.51.100.${++address}`));
  expect(await statuses(10, guess)).toEqual(Array(10).fill(401));
  expect((await guess()).status).toBe(429);
  expect((await signIn(base, { key: opsKey, name: 'ops' }, from('198.51.100.200'))).status).toBe(429);
  expect((await signIn(base, { key: leadKey, name: 'lead' }, from('198.51.100.200'))).status).toBe(303);
  // A name and a key that do not belong together is a failure, even when the key is right.
  expect((await signIn(base, { key: leadKey, name: 'ops' }, from('198.51.100.201'))).status).toBe(429);
  expect((await signIn(base, { key: opsKey, name: 'lead' }, from('198.51.100.201'))).status).toBe(401);
});

test('a signed-out session is kept until it would have expired, then removed', async () => {
  const expired = `expired-${randomUUID()}`;
  const live = `live-${randomUUID()}`;
  await recordRevokedSession(caseFile.pool, expired, Date.now() - 1000);
  expect(await isSessionRevoked(caseFile.pool, expired)).toBe(false);
  await recordRevokedSession(caseFile.pool, live, Date.now() + 60_000);
  expect(await isSessionRevoked(caseFile.pool, live)).toBe(true);
  const { rows } = await caseFile.pool.query('SELECT session_id FROM console_revoked_sessions WHERE session_id = $1', [
    expired,
  ]);
  expect(rows).toEqual([]);
});

test('an OIDC session from before operators were identified by issuer and subject is ended', async () => {
  const oidc = {
    issuer: 'http://127.0.0.1:1',
    clientId: 'console',
    clientSecret: 'x',
    redirectUrl: 'http://127.0.0.1:1/console/oidc/callback',
    scopes: 'openid',
    nameClaim: 'name',
    rolesClaim: 'roles',
    allowHttp: true,
  };
  const base = await api({ oidc });
  const current = createOidcSession(secret, { identity: 'http://127.0.0.1:1#ada', name: 'Ada', roles: [] });
  expect(await actionStatus(base, `${SESSION_COOKIE}=${current.cookieValue}`)).toBe(403);
  // Named by the display name alone: what audits recorded before.
  const { name: _shown, ...byName } = { ...current.session, sid: `${current.session.sid}-old`, key: 'Ada' };
  expect(await actionStatus(base, `${SESSION_COOKIE}=${signValue(secret, byName)}`)).toBe(401);
});
