/**
 * Origination keys scoped to the cases they started (`CASE_API_SCOPED_KEYS`), over real HTTP
 * against a running stack: a scoped key lists and reads only its own cases, and another key's case
 * is a 404 like a case that does not exist (its evidence, timeline and events too); a name search
 * finds only its own; it cannot start (or learn about) another key's case. An unscoped key and an
 * operator key see every case, as before.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { Company } from '../../simulator/store';
import { generateApiKey, hashApiKey } from '../../case-api/apiKeys';
import { readCaseApiConfig } from '../../case-api/config';
import { startStack, type Stack } from '../../cli/stack';
import { testDirectory, testTemporalConfig, testWorkflowBundle, testCaseFileOption } from '../setup/testEnvironment';
import { caseApiClient, eventually } from '../support/caseApiClient';
import { simulatorControl } from '../support/faultHarness/rawProviderApi';

const keys = {
  alpha: generateApiKey('origination'),
  beta: generateApiKey('origination'),
  everyone: generateApiKey('origination'),
  desk: generateApiKey('operator'),
};
const entry = (name: string, role: string, key: string) => `${name}:${role}:${hashApiKey(key).toString('hex')}`;
const env = {
  CASE_API_KEYS: [
    entry('alpha-los', 'origination', keys.alpha),
    entry('beta-los', 'origination', keys.beta),
    entry('all-cases', 'origination', keys.everyone),
    entry('desk', 'operator', keys.desk),
  ].join(','),
  CASE_API_SCOPED_KEYS: 'alpha-los, beta-los',
  CASE_API_SESSION_SECRET: randomBytes(32).toString('base64url'),
};

let stack: Stack;
let api: ReturnType<typeof caseApiClient>;

beforeAll(async () => {
  stack = await startStack({
    temporal: testTemporalConfig(),
    caseFile: testCaseFileOption(),
    workflowBundle: testWorkflowBundle(),
    simulatorSeed: 6127,
    spoolDir: testDirectory('spool'),
    processingDelayMs: 20,
    caseApi: { ...readCaseApiConfig(env), port: 0, rateLimitPerMinute: 10_000 },
  });
  api = caseApiClient(stack.caseApi.url);
});

afterAll(async () => {
  await stack?.stop();
});

const control = (path: string, body?: unknown) => simulatorControl(stack.simulator)(path, body);

/** Starts a credit-report case with `key`, under a reference of its own; answers its id and reference. */
async function startWith(key: string, company: string) {
  const caseId = (await control('/cases', {})).case_id as string;
  const found = ((await control('/companies')) as Company[]).find((c) => c.company_name === company)!;
  const reference = `scoped-${randomUUID()}`;
  const body = {
    caseId,
    reference,
    company: { company_id: found.company_id, company_name: company },
    steps: { creditReport: true },
  };
  expect((await api('POST', '/v1/cases', { key, body })).status).toBe(201);
  await eventually(
    () => api('GET', `/v1/cases/${caseId}`, { key: keys.everyone }),
    (r) => r.status === 200,
  );
  return { caseId, reference, body };
}

const caseIdsOf = (answer: { body: { cases: { caseId: string }[] } }) => answer.body.cases.map((c) => c.caseId);

test("a scoped key lists and reads only the cases it started; another key's case is not found", async () => {
  const mine = await startWith(keys.alpha, 'Acme Widgets Ltd');
  const theirs = await startWith(keys.beta, 'Ambiguous Foods Ltd');

  expect((await api('GET', `/v1/cases/${mine.caseId}`, { key: keys.alpha })).status).toBe(200);
  for (const path of ['', '/evidence', '/timeline', '/events']) {
    const answer = await api('GET', `/v1/cases/${theirs.caseId}${path}`, { key: keys.alpha });
    expect({ path, status: answer.status, body: answer.body }).toEqual({
      path,
      status: 404,
      body: { error: 'case_not_found', message: `No case ${theirs.caseId}` },
    });
  }
  const listed = await api('GET', '/v1/cases?pageSize=100', { key: keys.alpha });
  expect(listed.status).toBe(200);
  expect(caseIdsOf(listed)).toEqual([mine.caseId]);
  // Filters search its own cases only: another key's reference or company name finds nothing.
  const byReference = await api('GET', `/v1/cases?reference=${theirs.reference}`, { key: keys.alpha });
  expect(caseIdsOf(byReference)).toEqual([]);
  const byName = await api('GET', '/v1/cases?name=Ambiguous%20Foods&pageSize=100', { key: keys.alpha });
  expect(caseIdsOf(byName)).toEqual([]);

  // Unscoped keys, and operators, see every case as before.
  for (const key of [keys.everyone, keys.desk]) {
    expect((await api('GET', `/v1/cases/${theirs.caseId}/timeline`, { key })).status).toBe(200);
    const all = await api('GET', `/v1/cases?reference=${theirs.reference}`, { key });
    expect(caseIdsOf(all)).toEqual([theirs.caseId]);
  }
});

test("a scoped key cannot start another key's case, nor learn how it was started", async () => {
  const theirs = await startWith(keys.beta, 'Acme Widgets Ltd');
  // The same start, and another: both refused alike, naming no field of the case.
  for (const body of [theirs.body, { ...theirs.body, reference: 'probe' }]) {
    const answer = await api('POST', '/v1/cases', { key: keys.alpha, body });
    expect(answer.status).toBe(409);
    expect(answer.body).toEqual({
      error: 'start_conflict',
      message: `case ${theirs.caseId} was started with another API key; this key sees only the cases it started`,
    });
  }
});

test('CASE_API_SCOPED_KEYS names configured origination keys only', () => {
  expect(readCaseApiConfig(env).keys.map((k) => [k.name, k.scoped ?? false])).toEqual([
    ['alpha-los', true],
    ['beta-los', true],
    ['all-cases', false],
    ['desk', false],
  ]);
  expect(() => readCaseApiConfig({ ...env, CASE_API_SCOPED_KEYS: 'desk' })).toThrow(
    /CASE_API_SCOPED_KEYS: desk is an operator key/,
  );
  expect(() => readCaseApiConfig({ ...env, CASE_API_SCOPED_KEYS: 'alpha-los,nobody' })).toThrow(
    /CASE_API_SCOPED_KEYS: no key is named nobody/,
  );
});
