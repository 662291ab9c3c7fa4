/**
 * `GET /v1/analytics/funnel` over the 30 journeys of test/support/funnelJourneys.ts, served by a
 * case API whose Temporal connection leads nowhere: the funnel reads the case file alone. A bad
 * from, to or groupBy is refused naming the parameter; `Accept: text/csv` and `format=csv` answer
 * CSV; a key scoped to its own cases counts only those; the route is in the OpenAPI document.
 */
import { randomBytes } from 'node:crypto';
import { Client, Connection } from '@temporalio/client';
import { generateApiKey, hashApiKey } from '../../case-api/apiKeys';
import { startCaseApi, type RunningCaseApi } from '../../case-api/startCaseApi';
import { openCaseFile, type CaseFileStore } from '../../case-file/store';
import { caseApiClient } from '../support/caseApiClient';
import { startCaseFileProcess, type CaseFileProcess } from '../support/caseFileProcess';
import { writeFunnelJourneys } from '../support/funnelJourneys';

const keys = { lender: generateApiKey('origination'), scoped: generateApiKey('origination') };
let caseFile: CaseFileProcess;
let store: CaseFileStore;
let api: RunningCaseApi;
let connection: Connection;
const range = 'from=2026-11-01&to=2026-11-30';

beforeAll(async () => {
  caseFile = await startCaseFileProcess();
  store = await openCaseFile(caseFile.url, 1);
  await writeFunnelJourneys(store.pool);
  // Port 1: nothing listens there, so any Temporal call would fail the request.
  connection = Connection.lazy({ address: '127.0.0.1:1' });
  api = await startCaseApi(
    {
      port: 0,
      keys: [
        { name: 'lender', role: 'origination', hash: hashApiKey(keys.lender) },
        { name: 'broker', role: 'origination', hash: hashApiKey(keys.scoped), scoped: true },
      ],
      maxBodyBytes: 64 * 1024,
      rateLimitPerMinute: 10_000,
      sessionSecret: randomBytes(32).toString('base64url'),
    },
    { client: new Client({ connection }), taskQueue: 'funnel-test', caseFile: store },
  );
});
afterAll(async () => {
  await api?.stop();
  await connection?.close();
  await store?.close();
  await caseFile?.stop();
});

const call = (path: string, headers: Record<string, string> = {}) =>
  fetch(`${api.url}${path}`, { headers: { authorization: `Bearer ${keys.lender}`, ...headers } });

it('answers the funnel as JSON from the case file, with no Temporal call', async () => {
  const { status, body } = await caseApiClient(api.url)('GET', `/v1/analytics/funnel?${range}&groupBy=week`, {
    key: keys.lender,
  });
  expect(status).toBe(200);
  expect(body).toMatchObject({ from: '2026-11-01', to: '2026-11-30', groupBy: 'week', total: { cases: 30 } });
  expect(body.periods.map((p: { period: string }) => p.period)).toEqual(['2026-11-02', '2026-11-09', '2026-11-16']);
  expect(body.total.steps.find((s: { step: string }) => s.step === 'banking')).toMatchObject({
    reached: 30,
    completed: 10,
    waived: 10,
    expired: 10,
    unfinished: 10,
    timeInStep: { count: 30, medianSeconds: 5400, p90Seconds: 7200 },
  });
});

it.each([
  ['from=2026-13-01', 400, 'invalid_request', 'from: must be a date'],
  ['to=yesterday', 400, 'invalid_request', 'to: must be a date'],
  ['groupBy=year', 400, 'invalid_request', 'groupBy:'],
  ['format=xml', 400, 'invalid_request', 'format:'],
  ['since=2026-11-01', 400, 'invalid_request', '"since"'],
  ['from=2026-11-30&to=2026-11-01', 422, 'invalid_range', 'from: must not be after to'],
  ['from=2020-01-01&to=2026-11-01', 422, 'invalid_range', 'to: the range spans 2497 days'],
])('refuses %s with %i %s naming the parameter', async (query, status, code, message) => {
  const response = await call(`/v1/analytics/funnel?${query}`);
  expect(response.status).toBe(status);
  const body = (await response.json()) as { error: string; message: string };
  expect(body).toEqual({ error: code, message: expect.stringContaining(message) });
});

it('answers CSV for Accept: text/csv and for format=csv, one line per period and step, then the totals', async () => {
  for (const [path, headers] of [
    [`/v1/analytics/funnel?${range}`, { accept: 'text/csv' }],
    [`/v1/analytics/funnel?${range}&format=csv`, {}],
  ] as const) {
    const response = await call(path, headers);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/csv/);
    const lines = (await response.text()).trimEnd().split('\r\n');
    expect(lines[0]).toMatch(
      /^period,step,reached,completed,waived,expired,needsAttention,unfinished,timeInStepCount,/,
    );
    // 3 weeks: 2 steps each, the third also the identity verification; then 3 total lines.
    expect(lines).toHaveLength(1 + 7 + 3);
    expect(lines).toContain(
      'total,banking,30,10,10,10,20,10,30,5400,7200,30,1800,3600,30,0,600,30,3600,3600,20,2400,3000',
    );
  }
  const json = await call(`/v1/analytics/funnel?${range}`, { accept: 'application/json, text/csv;q=0.5' });
  expect(json.headers.get('content-type')).toMatch(/^application\/json/);
});

it('counts only the cases a scoped key started', async () => {
  const { status, body } = await caseApiClient(api.url)('GET', `/v1/analytics/funnel?${range}`, { key: keys.scoped });
  expect(status).toBe(200);
  expect(body).toMatchObject({ total: { cases: 0, steps: [] }, periods: [] });
});

it('is declared in the OpenAPI document with its parameters and both media types', async () => {
  const document = (await (await fetch(`${api.url}/openapi.json`)).json()) as {
    paths: Record<
      string,
      Record<string, { parameters: { name: string }[]; responses: Record<string, { content: object }> }>
    >;
  };
  const operation = document.paths['/v1/analytics/funnel']!.get!;
  expect(operation.parameters.map((p) => p.name)).toEqual(['from', 'to', 'groupBy', 'format']);
  expect(Object.keys(operation.responses['200']!.content)).toEqual(['application/json', 'text/csv']);
});
