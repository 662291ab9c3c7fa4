/**
 * The case API's documented answers when it cannot do what is asked, over real HTTP without a
 * stack: a bulk retry matching more journeys than one request takes is 422 `too_many_cases` and
 * retries nothing; a start whose ids the provider could not be asked about is 503
 * `provider_unavailable` and starts nothing; a read of cases without a case file is 503
 * `unavailable`. Temporal is a recording stand-in: these answers come before (or instead of) any
 * Temporal call that would change something.
 */
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import type { Client } from '@temporalio/client';
import pino from 'pino';
import { ProviderClient } from '../../activities/providerClient';
import { generateApiKey, hashApiKey } from '../../case-api/apiKeys';
import { createCaseApiApp } from '../../case-api/app';
import { CaseGateway } from '../../case-api/caseGateway';
import { bulkRetryMaxCases } from '../../client/bulkStepRetryRequest';
import { journeyWorkflowType } from '../../client/journeyMessages';

const opsKey = generateApiKey('operator');
const lenderKey = generateApiKey('origination');
const keys = [
  { name: 'ops', role: 'operator' as const, hash: hashApiKey(opsKey) },
  { name: 'lender', role: 'origination' as const, hash: hashApiKey(lenderKey) },
];
const servers: Server[] = [];

afterAll(async () => {
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
});

/** What the stand-in for Temporal was asked to do that would change something. */
const changes: string[] = [];

beforeEach(() => {
  changes.length = 0;
});

/** A running journey as Temporal's visibility lists it. */
const runningJourney = (i: number) => ({
  execution: { workflowId: `case/c${i}`, runId: `r${i}` },
  type: { name: journeyWorkflowType },
  status: 1,
});

/** Temporal with `matching` running journeys; a start or an Update is recorded, never made. */
function temporalStandIn(matching: number): Client {
  const record = (what: string) => () => {
    changes.push(what);
    throw new Error(`${what} reached Temporal`);
  };
  return {
    options: { namespace: 'default' },
    workflowService: {
      listWorkflowExecutions: () =>
        Promise.resolve({ executions: Array.from({ length: matching }, (_, i) => runningJourney(i)) }),
    },
    workflow: { start: record('start'), getHandle: record('getHandle') },
  } as unknown as Client;
}

/** A provider whose token endpoint answers and whose API answers `status` (or no connection at all). */
function providerAnswering(status: number | 'refused'): ProviderClient {
  const config = {
    baseUrl: 'http://provider.test',
    authUrl: 'http://provider.test/oauth',
    clientId: 'id',
    clientSecrets: ['secret'],
    requestTimeoutMs: 2000,
  };
  const fetchImpl = (url: string | URL | Request): Promise<Response> => {
    if (String(url).endsWith('/oauth/token'))
      return Promise.resolve(Response.json({ access_token: 't', token_type: 'Bearer', expires_in: 3600 }));
    if (status === 'refused') return Promise.reject(new TypeError('fetch failed: connect ECONNREFUSED'));
    return Promise.resolve(new Response('{"error":"down"}', { status }));
  };
  return new ProviderClient(config, fetchImpl as typeof fetch);
}

async function api(gateway: CaseGateway): Promise<string> {
  const config = { port: 0, keys, maxBodyBytes: 65536, rateLimitPerMinute: 1000, sessionSecret: 's'.repeat(40) };
  const server = createCaseApiApp(config, gateway, pino({ level: 'silent' })).listen(0, '127.0.0.1');
  servers.push(server);
  await new Promise((resolve) => server.once('listening', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function send(url: string, key: string, method = 'GET', body?: unknown) {
  const answer = await fetch(url, {
    method,
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: answer.status, body: (await answer.json()) as { error?: string; message?: string } };
}

test(`a bulk retry matching more than ${bulkRetryMaxCases} journeys is 422 too_many_cases and retries none`, async () => {
  const base = await api(new CaseGateway(temporalStandIn(bulkRetryMaxCases + 1), 'q'));
  const answer = await send(`${base}/v1/cases/retry-step`, opsKey, 'POST', {
    where: "JourneyState = 'needs_attention'",
    step: 'banking',
    reason: 'provider outage',
    dryRun: false,
  });
  expect(answer).toEqual({
    status: 422,
    body: { error: 'too_many_cases', message: expect.stringContaining('narrow the query') },
  });
  expect(changes).toEqual([]);
});

test.each([503, 'refused'] as const)(
  'a start whose person the provider could not be asked about (%s) is 503 provider_unavailable and starts nothing',
  async (providerAnswer) => {
    const gateway = new CaseGateway(temporalStandIn(0), 'q', undefined, providerAnswering(providerAnswer));
    const answer = await send(`${await api(gateway)}/v1/cases`, lenderKey, 'POST', {
      caseId: 'case-1',
      people: [{ personId: 'person-1' }],
      steps: { identityVerification: true },
    });
    expect(answer).toEqual({
      status: 503,
      body: { error: 'provider_unavailable', message: expect.stringContaining('nothing was started, try again') },
    });
    expect(answer.body.message).not.toContain('person-1');
    expect(changes).toEqual([]);
  },
);

test.each([
  ['GET', '/v1/cases/case-1', lenderKey],
  ['GET', '/v1/cases', lenderKey],
  ['GET', '/v1/cases/case-1/evidence', lenderKey],
  ['GET', '/v1/cases/case-1/events', lenderKey],
  ['GET', '/v1/cases/case-1/timeline', lenderKey],
  ['GET', '/v1/analytics/funnel?from=2026-01-01&to=2026-01-31', lenderKey],
])('without a case file, %s %s is 503 unavailable naming DATABASE_URL', async (method, path, key) => {
  const answer = await send(`${await api(new CaseGateway(temporalStandIn(0), 'q'))}${path}`, key, method);
  expect(answer).toEqual({
    status: 503,
    body: { error: 'unavailable', message: expect.stringContaining('set DATABASE_URL') },
  });
});
