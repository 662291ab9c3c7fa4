/**
 * Provider calls and the token request never follow a redirect: a 3xx to another host would take
 * the bearer token past linkGuard's origin check, and a 307 would send `client_secret` again in the
 * body to the new host. A redirect is a non-retryable failure naming the status and where it
 * pointed; the host it points to receives nothing.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { ApplicationFailure } from '@temporalio/common';
import { z } from 'zod';
import { ProviderClient } from '../../activities/providerClient';
import { routes } from '../../activities/routes';

const SECRET = 'client-secret-that-must-stay-home';
const servers: http.Server[] = [];
/** What the second host received: method, path and body of each request. */
const received: string[] = [];

function listen(handler: http.RequestListener): Promise<string> {
  const server = http.createServer(handler);
  servers.push(server);
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)),
  );
}

let elsewhere: string;

beforeAll(async () => {
  elsewhere = await listen((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    req.on('end', () => {
      received.push(`${req.method} ${req.url} ${req.headers.authorization ?? ''} ${body}`);
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end('{"access_token":"x","token_type":"Bearer","expires_in":3600}');
    });
  });
});

beforeEach(() => {
  received.length = 0;
});

afterAll(async () => {
  await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
});

/** A provider whose token endpoint (`redirectToken`) or API answers `status` pointing at the second host. */
async function redirectingProvider(status: number, redirectToken: boolean): Promise<ProviderClient> {
  const base = await listen((req, res) => {
    req.resume();
    req.on('end', () => {
      if (req.url === '/oauth/token' && !redirectToken) {
        res.writeHead(200, { 'content-type': 'application/json' });
        return void res.end(JSON.stringify({ access_token: 'token-1', token_type: 'Bearer', expires_in: 3600 }));
      }
      res.writeHead(status, { location: `${elsewhere}/stolen${req.url}?code=abc` }).end();
    });
  });
  return new ProviderClient(
    { baseUrl: base, authUrl: `${base}/oauth`, clientId: 'client', clientSecrets: [SECRET], requestTimeoutMs: 5_000 },
    fetch,
  );
}

async function failureOf(work: Promise<unknown>): Promise<ApplicationFailure> {
  const error = await work.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ApplicationFailure);
  return error as ApplicationFailure;
}

const expectRefused = (failure: ApplicationFailure, status: number) => {
  expect(failure.type).toBe('ProviderRedirect');
  expect(failure.nonRetryable).toBe(true);
  expect(failure.message).toContain(String(status));
  expect(failure.message).toContain(`${elsewhere}/stolen`);
  // The Location's query may carry anything: it is not repeated.
  expect(failure.message).not.toContain('code=abc');
  expect(failure.message).not.toContain(SECRET);
  expect(received).toEqual([]);
};

test.each([302, 307])('a %i from the token endpoint is refused and the secret goes nowhere else', async (status) => {
  const client = await redirectingProvider(status, true);
  expectRefused(await failureOf(client.tokens.token()), status);
});

test.each([302, 307])('a %i from a provider call is refused and the token goes nowhere else', async (status) => {
  const client = await redirectingProvider(status, false);
  const creating = client.call({
    route: routes.createIdentityVerification,
    params: { personId: 'p-1' },
    body: { reference: 'r-1' },
    schema: z.unknown(),
    idempotencyKey: 'k-1',
  });
  expectRefused(await failureOf(creating), status);
  expectRefused(await failureOf(client.follow({ link: '/v2/anything', schema: z.unknown() })), status);
});
