/**
 * The case API's limits and console sessions, over real HTTP without Temporal: rate limits per API
 * key and per client (behind a trusted proxy, the client it reports), health checks not counted,
 * a strict bucket for failed sign-ins, the Origin of the sign-in form checked, `Secure` cookies
 * behind a TLS proxy, sessions bound to the key's hash and ended at logout.
 */
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { Client, Connection } from '@temporalio/client';
import pino from 'pino';
import { generateApiKey, hashApiKey, type ApiKeyEntry } from '../../case-api/apiKeys';
import { createCaseApiApp } from '../../case-api/app';
import { CaseGateway } from '../../case-api/caseGateway';
import { readCaseApiConfig, type CaseApiConfig } from '../../case-api/config';
import { consoleRouter } from '../../case-api/console/consoleRouter';
import { SESSION_COOKIE, csrfToken, readSession } from '../../case-api/console/session';

const secret = 's'.repeat(40);
const opsKey = generateApiKey('operator');
const lenderKey = generateApiKey('origination');
const keys: ApiKeyEntry[] = [
  { name: 'ops', role: 'operator', hash: hashApiKey(opsKey) },
  { name: 'lender', role: 'origination', hash: hashApiKey(lenderKey) },
];
// A lazy connection to nowhere: these routes never reach Temporal.
const client = new Client({ connection: Connection.lazy({ address: '127.0.0.1:1' }) });
const servers: Server[] = [];

afterAll(async () => {
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  await client.connection.close();
});

async function api(overrides: Partial<CaseApiConfig> = {}): Promise<string> {
  const config: CaseApiConfig = {
    port: 0,
    keys,
    maxBodyBytes: 4096,
    rateLimitPerMinute: 3,
    sessionSecret: secret,
    ...overrides,
  };
  const gateway = new CaseGateway(client, 'q');
  const app = createCaseApiApp(config, gateway, pino({ level: 'silent' }), [
    consoleRouter(config, gateway, { namespace: 'default' }),
  ]);
  const server = app.listen(0, '127.0.0.1');
  servers.push(server);
  await new Promise((resolve) => server.once('listening', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/**
 * The answer's status; its body is cancelled, since an unread one larger than a socket's buffer
 * holds the socket open.
 */
const get = (url: string, headers: Record<string, string> = {}) =>
  fetch(url, { headers }).then(async (r) => {
    await r.body?.cancel();
    return r.status;
  });
const statuses = async (n: number, call: () => Promise<number>) => {
  const out: number[] = [];
  for (let i = 0; i < n; i++) out.push(await call());
  return out;
};
const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

function signIn(base: string, key: string, headers: Record<string, string> = {}) {
  return fetch(`${base}/console/login`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: base, ...headers },
    body: new URLSearchParams({ key }).toString(),
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

test('health checks are not counted: many of them leave a sign-in its budget', async () => {
  const base = await api();
  expect(new Set(await statuses(20, () => get(`${base}/healthz`)))).toEqual(new Set([200]));
  expect((await signIn(base, opsKey)).status).toBe(303);
});

test("each API key has its own bucket, and callers without a known key share their address's", async () => {
  const base = await api();
  expect(await statuses(4, () => get(`${base}/openapi.json`, bearer(lenderKey)))).toEqual([200, 200, 200, 429]);
  expect(await get(`${base}/openapi.json`, bearer(opsKey))).toBe(200);
  expect(await statuses(4, () => get(`${base}/openapi.json`))).toEqual([200, 200, 200, 429]);
  // An unknown key does not buy a bucket of its own.
  expect(await get(`${base}/openapi.json`, bearer(generateApiKey('operator')))).toBe(429);
});

test('behind a trusted proxy each client the proxy reports has its own bucket; untrusted, the header is ignored', async () => {
  const trusting = await api({ trustProxy: 'loopback' });
  const from = (address: string) => ({ 'x-forwarded-for': address });
  expect(await statuses(4, () => get(`${trusting}/openapi.json`, from('203.0.113.1')))).toEqual([200, 200, 200, 429]);
  expect(await get(`${trusting}/openapi.json`, from('203.0.113.2'))).toBe(200);
  const untrusting = await api();
  expect(await statuses(3, () => get(`${untrusting}/openapi.json`, from('203.0.113.1')))).toEqual([200, 200, 200]);
  expect(await get(`${untrusting}/openapi.json`, from('203.0.113.2'))).toBe(429);
});

test('the session cookie is Secure when a trusted TLS proxy forwarded the sign-in', async () => {
  const base = await api({ trustProxy: 'loopback' });
  const overTls = await signIn(base, opsKey, { 'x-forwarded-proto': 'https' });
  expect(overTls.status).toBe(303);
  expect(overTls.headers.get('set-cookie')).toMatch(/;\s*Secure/i);
  expect((await signIn(base, opsKey)).headers.get('set-cookie')).not.toMatch(/;\s*Secure/i);
});

test('sign-in from another origin is refused and sets no cookie (login CSRF)', async () => {
  const base = await api();
  const response = await signIn(base, opsKey, { origin: 'https://evil.example' });
  expect(response.status).toBe(403);
  expect(response.headers.get('set-cookie')).toBeNull();
});

test('failed sign-ins have a strict bucket per client: past it, even the right key waits', async () => {
  const base = await api({ rateLimitPerMinute: 1000, signInFailureLimit: 2 });
  expect((await signIn(base, generateApiKey('operator'))).status).toBe(401);
  expect((await signIn(base, lenderKey)).status).toBe(403);
  expect((await signIn(base, opsKey)).status).toBe(429);
});

test('logout ends the session for good: the old cookie no longer works', async () => {
  const base = await api({ rateLimitPerMinute: 1000 });
  const cookie = sessionCookie(await signIn(base, opsKey));
  expect(await actionStatus(base, cookie)).toBe(403);
  const session = readSession(secret, cookie.slice(SESSION_COOKIE.length + 1))!;
  const logout = await fetch(`${base}/console/logout`, {
    method: 'POST',
    redirect: 'manual',
    headers: { cookie, origin: base, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ csrf: csrfToken(secret, session) }).toString(),
  });
  expect(logout.status).toBe(303);
  expect(await actionStatus(base, cookie)).toBe(401);
});

test('a session ends when its key is rotated under the same name', async () => {
  const before = await api({ rateLimitPerMinute: 1000 });
  const cookie = sessionCookie(await signIn(before, opsKey));
  expect(await actionStatus(before, cookie)).toBe(403);
  const rotated = await api({
    rateLimitPerMinute: 1000,
    keys: [{ name: 'ops', role: 'operator', hash: hashApiKey(generateApiKey('operator')) }],
  });
  expect(await actionStatus(rotated, cookie)).toBe(401);
});

test('CASE_API_TRUST_PROXY takes hops or proxy addresses; trusting anyone is refused, naming the variable', () => {
  const env = { CASE_API_KEYS: `ops:operator:${hashApiKey(opsKey).toString('hex')}`, CASE_API_SESSION_SECRET: secret };
  expect(readCaseApiConfig({ ...env, CASE_API_TRUST_PROXY: '1' }).trustProxy).toBe(1);
  expect(readCaseApiConfig({ ...env, CASE_API_TRUST_PROXY: 'loopback, 10.0.0.0/8' }).trustProxy).toBe(
    'loopback, 10.0.0.0/8',
  );
  expect(readCaseApiConfig(env).trustProxy).toBeUndefined();
  expect(() => readCaseApiConfig({ ...env, CASE_API_TRUST_PROXY: 'true' })).toThrow(/CASE_API_TRUST_PROXY/);
  expect(() => readCaseApiConfig({ ...env, CASE_API_SIGN_IN_FAILURE_LIMIT: '0' })).toThrow(
    /CASE_API_SIGN_IN_FAILURE_LIMIT/,
  );
});

test('CONSOLE_LONG_POLL_SECONDS sets how long a console page waits for a change: 25 s by default, 1 to 60', () => {
  const env = { CASE_API_KEYS: `ops:operator:${hashApiKey(opsKey).toString('hex')}`, CASE_API_SESSION_SECRET: secret };
  expect(readCaseApiConfig(env).consoleLongPollMs).toBe(25_000);
  expect(readCaseApiConfig({ ...env, CONSOLE_LONG_POLL_SECONDS: '10' }).consoleLongPollMs).toBe(10_000);
  expect(() => readCaseApiConfig({ ...env, CONSOLE_LONG_POLL_SECONDS: '0' })).toThrow(/CONSOLE_LONG_POLL_SECONDS/);
  expect(() => readCaseApiConfig({ ...env, CONSOLE_LONG_POLL_SECONDS: '600' })).toThrow(/CONSOLE_LONG_POLL_SECONDS/);
});
