/**
 * A case's evidence validity windows (`freshness`) at the case API's door, over real HTTP without
 * Temporal (a refused request never reaches it): a window no timer could measure, or a kind that
 * is no evidence kind, is refused naming the field; the document shows both new fields
 * (`freshness`, `refreshStale`) and the case's `evidence`, and the journey input takes them with
 * their defaults.
 */
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { Client, Connection } from '@temporalio/client';
import pino from 'pino';
import { generateApiKey, hashApiKey } from '../../case-api/apiKeys';
import { createCaseApiApp } from '../../case-api/app';
import { CaseGateway } from '../../case-api/caseGateway';
import { onboardCaseInputSchema } from '../../client/journeyInput';
import { caseApiClient } from '../support/caseApiClient';

const origination = generateApiKey('origination');
// A lazy connection to nowhere: a refused request never reaches Temporal.
const client = new Client({ connection: Connection.lazy({ address: '127.0.0.1:1' }) });
let server: Server;
let api: ReturnType<typeof caseApiClient>;

beforeAll(async () => {
  const config = {
    port: 0,
    keys: [{ name: 'lender', role: 'origination' as const, hash: hashApiKey(origination) }],
    maxBodyBytes: 64 * 1024,
    rateLimitPerMinute: 1000,
    sessionSecret: 's'.repeat(40),
  };
  const app = createCaseApiApp(config, new CaseGateway(client, 'q'), pino({ level: 'silent' }));
  server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  api = caseApiClient(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
});

afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve));
  await client.connection.close();
});

const start = (body: Record<string, unknown>) =>
  api('POST', '/v1/cases', {
    key: origination,
    body: { caseId: 'case-1', company: { company_id: 'c-1' }, steps: { creditReport: true }, ...body },
  });

test('a freshness window no timer could measure is refused naming freshness.<kind>', async () => {
  for (const creditReport of ['1 xyz', '0', 30.5, 0, 'thirty days']) {
    const refused = await start({ freshness: { creditReport } });
    expect({ creditReport, status: refused.status, message: refused.body.message }).toEqual({
      creditReport,
      status: 400,
      message: expect.stringContaining('freshness.creditReport'),
    });
  }
});

test('a freshness kind that is no evidence kind is refused by name, with the kinds there are', async () => {
  const refused = await start({ freshness: { creditreport: '30 days' } });
  expect(refused).toMatchObject({ status: 400, body: { error: 'invalid_request' } });
  expect(refused.body.message).toContain('"creditreport"');
  expect(refused.body.message).toContain('creditReport, identityVerification, bankTransactions');
});

test('the document shows freshness by kind and refreshStale; the journey input defaults them', async () => {
  const document = (await api('GET', '/openapi.json')).body;
  const request = document.components.schemas.StartCaseRequest.properties;
  expect(Object.keys(request.freshness.properties)).toEqual([
    'creditReport',
    'identityVerification',
    'bankTransactions',
    'affordability',
    'incomeEmployer',
  ]);
  expect(request.freshness.additionalProperties).toBe(false);
  expect(request.refreshStale.type).toBe('boolean');
  expect(document.components.schemas.CaseStatus.properties.evidence).toBeDefined();

  const input = onboardCaseInputSchema.parse({
    caseId: 'case-1',
    company: { company_id: 'c-1' },
    steps: { creditReport: true },
  });
  expect(input).toMatchObject({ freshness: {}, refreshStale: true });
  const own = onboardCaseInputSchema.parse({
    caseId: 'case-1',
    company: { company_id: 'c-1' },
    steps: { creditReport: true },
    freshness: { creditReport: '3 seconds' },
    refreshStale: false,
  });
  expect(own).toMatchObject({ freshness: { creditReport: '3 seconds' }, refreshStale: false });
});
