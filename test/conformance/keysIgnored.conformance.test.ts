/**
 * The simulator as the spec has it (no idempotency): `Idempotency-Key` is kept on what a call
 * creates and never answers a repeat, and the creation-answer-lost fault cuts the answer of a
 * creating call only once it has created something.
 */
import type { RunningSimulator } from '../../simulator/startSimulator';
import type { Company, RequestLogEntry } from '../../simulator/store';
import { useConformanceSimulator } from '../support/conformanceSimulator';
import { control, networkFailureOf, rawApi } from '../support/faultHarness/rawProviderApi';
import { startSimulator } from '../../simulator/startSimulator';
import { readSimulatorConfig } from '../../simulator/config';

let sim: RunningSimulator;
let api: ReturnType<typeof rawApi>;
useConformanceSimulator((current) => ({ sim, api } = current));

const key = (k: string) => ({ 'idempotency-key': k });
const ledger = async () => (await control(sim, 'GET', '/ledger')).body;
const acme = async () =>
  ((await control(sim, 'GET', '/companies')).body as Company[]).find((c) => c.company_name === 'Acme Widgets Ltd')!;
const firstPerson = async () => (await control(sim, 'GET', '/persons')).body[0].person_id as string;

test('by default a repeated key creates again: the ledger shows both, each with the key sent', async () => {
  const company = await acme();
  const person = await firstPerson();
  const first = await api('POST', '/v2/company-credit-reports', { company_id: company.company_id }, key('k-1'));
  const again = await api('POST', '/v2/company-credit-reports', { company_id: company.company_id }, key('k-1'));
  expect([first.status, again.status]).toEqual([201, 201]);
  expect(again.headers.get('idempotent-replayed')).toBeNull();
  expect(again.body.report_id).not.toBe(first.body.report_id);
  const idv1 = await api('POST', `/v2/persons/${person}/identity-verifications`, {}, key('idv-1'));
  const idv2 = await api('POST', `/v2/persons/${person}/identity-verifications`, { idempotency_key: 'idv-1' });
  expect(idv2.body.request_id).not.toBe(idv1.body.request_id);
  const listed = await ledger();
  expect(listed.creditReports.map((r: { idempotency_key: string }) => r.idempotency_key)).toEqual(['k-1', 'k-1']);
  expect(listed.identityVerifications).toHaveLength(2);
});

test('PUT /_control/idempotency-keys switches to honoured and back', async () => {
  const company = await acme();
  expect((await control(sim, 'PUT', '/idempotency-keys', { mode: 'sometimes' })).status).toBe(400);
  expect((await control(sim, 'PUT', '/idempotency-keys', { mode: 'honoured' })).body).toEqual({ mode: 'honoured' });
  const first = await api('POST', '/v2/company-credit-reports', { company_id: company.company_id }, key('h'));
  const again = await api('POST', '/v2/company-credit-reports', { company_id: company.company_id }, key('h'));
  expect(again.body.report_id).toBe(first.body.report_id);
  await control(sim, 'PUT', '/idempotency-keys', { mode: 'ignored' });
  const third = await api('POST', '/v2/company-credit-reports', { company_id: company.company_id }, key('h'));
  expect(third.body.report_id).not.toBe(first.body.report_id);
});

test('SIMULATOR_IDEMPOTENCY_KEYS: ignored by default, honoured on request, anything else refused', () => {
  expect(readSimulatorConfig({}).idempotencyKeys).toBe('ignored');
  expect(readSimulatorConfig({ SIMULATOR_IDEMPOTENCY_KEYS: 'honoured' }).idempotencyKeys).toBe('honoured');
  expect(() => readSimulatorConfig({ SIMULATOR_IDEMPOTENCY_KEYS: 'yes' })).toThrow(/SIMULATOR_IDEMPOTENCY_KEYS/);
});

test('scripted creation_answer_lost: the report is made and the answer cut; a refusal is answered', async () => {
  const company = await acme();
  await control(sim, 'POST', '/faults', {
    method: 'POST',
    path: '/v2/company-credit-reports',
    creation_answer_lost: true,
    times: 2,
  });
  const failure = await networkFailureOf(
    api('POST', '/v2/company-credit-reports', { company_id: company.company_id }, key('c-1')),
  );
  expect(failure).toMatchObject({ message: 'fetch failed', cause: { code: 'UND_ERR_SOCKET' } });
  // The second scripted call is refused (no company_id): a refusal created nothing and is answered.
  const refused = await api('POST', '/v2/company-credit-reports', {}, key('c-2'));
  expect(refused.status).toBe(400);
  expect((await ledger()).creditReports).toEqual([
    expect.objectContaining({ company_id: company.company_id, idempotency_key: 'c-1' }),
  ]);
  const log = ((await control(sim, 'GET', '/requests')).body as RequestLogEntry[]).filter(
    (r) => r.path === '/v2/company-credit-reports',
  );
  expect(log.map((r) => [r.status, r.response_lost ?? false])).toEqual([
    [201, true],
    [400, false],
  ]);
});

test('creation_answer_lost_rate: creating calls lose their answers after creating, reads never do', async () => {
  await control(sim, 'PUT', '/fault-rates', { creation_answer_lost_rate: 1 });
  const person = await firstPerson();
  await networkFailureOf(api('POST', `/v2/persons/${person}/identity-verifications`, {}, key('r-1')));
  const listed = await api('GET', `/v2/persons/${person}/identity-verifications`);
  expect(listed.status).toBe(200);
  expect(listed.body).toEqual([expect.objectContaining({ person_id: person })]);
  expect((await control(sim, 'PUT', '/fault-rates', { creation_answer_lost_rate: 2 })).status).toBe(400);
});

test('a simulator started with honoured keys answers a repeat with the first answer', async () => {
  const honoured = await startSimulator({
    port: 0,
    clientId: 'conformance-honoured',
    clientSecret: 'secret-h',
    seed: 9,
    tokenLifetimeSeconds: 3600,
    allowInsecureLoopbackCallbacks: true,
    processingDelayMs: 0,
    idempotencyKeys: 'honoured',
  });
  try {
    const honouredApi = rawApi(honoured, 'secret-h');
    const person = (await control(honoured, 'GET', '/persons')).body[0].person_id as string;
    const first = await honouredApi('POST', `/v2/persons/${person}/identity-verifications`, {}, key('x'));
    const again = await honouredApi('POST', `/v2/persons/${person}/identity-verifications`, {}, key('x'));
    expect(again.body.request_id).toBe(first.body.request_id);
  } finally {
    await honoured.stop();
  }
});
