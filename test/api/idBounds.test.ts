/**
 * The case API refuses an id it could not use before anything starts: 422 `invalid_id` naming the
 * field, the limit and the fix; names with bidi or control characters are refused too. Over real
 * HTTP, without Temporal: a refused request never reaches it.
 */
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { Client, Connection } from '@temporalio/client';
import pino from 'pino';
import { generateApiKey, hashApiKey } from '../../case-api/apiKeys';
import { createCaseApiApp } from '../../case-api/app';
import { CaseGateway } from '../../case-api/caseGateway';
import { caseApiClient } from '../support/caseApiClient';

const origination = generateApiKey('origination');
const operator = generateApiKey('operator');
// A lazy connection to nowhere: a refused request never reaches Temporal.
const client = new Client({ connection: Connection.lazy({ address: '127.0.0.1:1' }) });
let server: Server;
let api: ReturnType<typeof caseApiClient>;

beforeAll(async () => {
  const config = {
    port: 0,
    keys: [
      { name: 'lender', role: 'origination' as const, hash: hashApiKey(origination) },
      { name: 'ops', role: 'operator' as const, hash: hashApiKey(operator) },
    ],
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

const guid = '3f2b1c9e-8d7a-4e6f-9b0c-1a2b3c4d5e6f';
const start = (body: Record<string, unknown>) =>
  api('POST', '/v1/cases', {
    key: origination,
    body: { caseId: guid, steps: { identityVerification: true }, ...body },
  });

test('POST /v1/cases with a 3,000-character personId is a 422 naming the field, the limit and the fix', async () => {
  const answer = await start({ people: [{ personId: 'p'.repeat(3000) }] });
  expect(answer.status).toBe(422);
  expect(answer.body.error).toBe('invalid_id');
  expect(answer.body.message).toContain('people.0.personId');
  expect(answer.body.message).toContain('at most 200 characters');
  expect(answer.body.message).toContain('person_id the provider answered');
  expect(answer.body.message).not.toContain('ppppppppppppppppppppppppp');
});

test('a bidi control in an id is a 422 invalid_id; in a company name it is refused naming the field', async () => {
  const person = await start({ people: [{ personId: `${guid}\u202e` }] });
  expect(person).toMatchObject({ status: 422, body: { error: 'invalid_id' } });
  expect(person.body.message).toContain('people.0.personId');

  const caseId = await start({ caseId: `case\u2066-1`, people: [{ personId: guid }] });
  expect(caseId).toMatchObject({ status: 422, body: { error: 'invalid_id' } });
  expect(caseId.body.message).toContain('caseId');

  const company = await start({
    steps: { creditReport: true },
    company: { company_id: 'c-1', company_name: 'Acme \u202eLtd' },
  });
  expect(company.status).toBe(400);
  expect(company.body.message).toContain('company.company_name');
  expect(company.body.message).toContain('bidi');

  const name = await start({ people: [{ personId: guid, name: 'Ada\u0007' }] });
  expect(name.status).toBe(400);
  expect(name.body.message).toContain('people.0.name');
});

test("an operator's picklist choice is an id too: a bidi control in it is a 422 invalid_id", async () => {
  const answer = await api('POST', `/v1/cases/${guid}/picklist`, {
    key: operator,
    body: { providerId: 'CR-1\u202e' },
  });
  expect(answer).toMatchObject({ status: 422, body: { error: 'invalid_id' } });
  expect(answer.body.message).toContain('providerId');
});

test('the document states the bounds of each id, and the 422 of POST /v1/cases names invalid_id', async () => {
  const document = (await api('GET', '/openapi.json')).body;
  const request = document.components.schemas.StartCaseRequest.properties;
  const personId = request.people.items.properties.personId;
  expect(personId).toMatchObject({ type: 'string', maxLength: 200 });
  expect(new RegExp(personId.pattern).test(guid)).toBe(true);
  for (const bad of ['p/2', '..', `p\u202e`]) expect(new RegExp(personId.pattern).test(bad)).toBe(false);
  expect(new RegExp(request.company.properties.company_name.anyOf[0].pattern).test('Acme \u202eLtd')).toBe(false);
  expect(document.paths['/v1/cases'].post.responses['422'].description).toContain('invalid_id');
});
