/**
 * `POST /v1/cases/{caseId}/refresh` against a running stack: a closed case's named evidence is
 * renewed by a new run (202 with the plan, under a Request-Id; a repeat with the same
 * Idempotency-Key answers the first plan and starts nothing), the operator action is on the
 * timeline; a running case is refused (409), and a bad request is refused naming what is wrong.
 */
import type { Company } from '../../simulator/store';
import { startStack, type Stack } from '../../cli/stack';
import { testDirectory, testTemporalConfig, testWorkflowBundle, testCaseFileOption } from '../setup/testEnvironment';
import { caseApiClient, eventually } from '../support/caseApiClient';
import { simulatorControl } from '../support/faultHarness/rawProviderApi';

let stack: Stack;
let api: ReturnType<typeof caseApiClient>;
let operator: string;
let origination: string;

beforeAll(async () => {
  stack = await startStack({
    temporal: testTemporalConfig(),
    caseFile: testCaseFileOption(),
    workflowBundle: testWorkflowBundle(),
    simulatorSeed: 3471,
    spoolDir: testDirectory('spool'),
    processingDelayMs: 20,
  });
  api = caseApiClient(stack.caseApi.url);
  operator = stack.caseApiKeys!.operator;
  origination = stack.caseApiKeys!.origination;
});

afterAll(async () => {
  await stack?.stop();
});

const control = (path: string, body?: unknown) => simulatorControl(stack.simulator)(path, body);
const readCase = (caseId: string) => api('GET', `/v1/cases/${caseId}`, { key: origination });
const refresh = (caseId: string, body: unknown, headers: Record<string, string> = {}) =>
  api('POST', `/v1/cases/${caseId}/refresh`, { key: operator, body, headers });

let companies = 0;

/** A case with a credit report only, of a company the bureau matches once: it completes on its own. */
async function completedCreditReportCase(): Promise<{ caseId: string; companyId: string }> {
  const caseId = (await control('/cases', {})).case_id as string;
  // A name and number of its own each time: two companies of one name would make a picklist.
  const n = ++companies;
  const company = await control('/companies', {
    company_name: `Refresh Works ${n} Ltd`,
    company_number: `RW${String(n).padStart(6, '0')}`,
    country_code: 'GB',
  });
  const companyId = company.company_id as string;
  const input = { caseId, company: { company_id: companyId, country_code: 'GB' }, steps: { creditReport: true } };
  expect((await api('POST', '/v1/cases', { key: origination, body: input })).status).toBe(201);
  await eventually(
    () => readCase(caseId),
    (r) => r.body?.state === 'completed' && r.body?.runStatus === 'COMPLETED',
    60_000,
  );
  return { caseId, companyId };
}

test('a bad refresh request is refused naming the field: an unknown item or one the case never had (422), no reason or an unknown field (400)', async () => {
  const { caseId } = await completedCreditReportCase();
  const unknownItem = await refresh(caseId, { items: ['creditScore'], reason: 'annual review' });
  expect(unknownItem).toMatchObject({ status: 422, body: { error: 'unknown_item' } });
  expect(unknownItem.body.message).toContain('"creditScore"');
  expect(unknownItem.body.message).toContain('creditReport, identityVerification, bankTransactions');

  const neverHad = await refresh(caseId, { items: ['bankTransactions'], reason: 'annual review' });
  expect(neverHad).toMatchObject({ status: 422, body: { error: 'item_not_in_case' } });
  expect(neverHad.body.message).toContain('bankTransactions');

  const noReason = await refresh(caseId, { items: ['creditReport'] });
  expect(noReason).toMatchObject({ status: 400, body: { error: 'invalid_request' } });
  expect(noReason.body.message).toContain('reason');

  const unknownField = await refresh(caseId, { items: ['creditReport'], reason: 'annual review', fresh: true });
  expect(unknownField).toMatchObject({ status: 400, body: { error: 'invalid_request' } });
  expect(unknownField.body.message).toContain('fresh');

  const twice = await refresh(caseId, { items: ['creditReport', 'creditReport'], reason: 'annual review' });
  expect(twice).toMatchObject({ status: 400, body: { error: 'invalid_request' } });
  expect(twice.body.message).toContain('items');

  // Nothing was started: the case is still the closed run it was.
  expect((await readCase(caseId)).body).toMatchObject({ state: 'completed', runStatus: 'COMPLETED' });
});

test('a running case is refused (409): refresh renews the evidence of closed cases', async () => {
  const caseId = (await control('/cases', {})).case_id as string;
  const ambiguous = ((await control('/companies')) as Company[]).find((c) => c.company_name === 'Ambiguous Foods Ltd')!;
  const input = { caseId, company: { company_id: ambiguous.company_id }, steps: { creditReport: true } };
  expect((await api('POST', '/v1/cases', { key: origination, body: input })).status).toBe(201);
  await eventually(
    () => readCase(caseId),
    (r) => r.body?.steps?.['credit-report']?.state === 'waiting',
  );
  const refused = await refresh(caseId, { items: ['creditReport'], reason: 'annual review' });
  expect(refused).toMatchObject({ status: 409, body: { error: 'case_running' } });
  expect(refused.body.message).toContain('closed');
  await api('POST', `/v1/cases/${caseId}/cancel`, { key: operator, body: {} });
});

test('a closed case is renewed (202 with the plan and a Request-Id); a repeat with the Idempotency-Key answers the first plan; the timeline has the action', async () => {
  const { caseId, companyId } = await completedCreditReportCase();
  const before = await readCase(caseId);
  const body = { items: ['creditReport'], reason: 'annual review' };
  const accepted = await refresh(caseId, body, { 'Idempotency-Key': 'review-2026' });
  expect(accepted.status).toBe(202);
  expect(accepted.headers.get('Request-Id')).toBe('refresh/review-2026');
  expect(accepted.body).toEqual({
    caseId,
    items: ['creditReport'],
    renewed: [{ step: 'credit-report', kind: 'creditReport', need: 2 }],
    carriedOver: [],
    runId: expect.any(String),
  });
  expect(accepted.body.runId).not.toBe(before.body.runId);

  const repeat = await refresh(caseId, body, { 'Idempotency-Key': 'review-2026' });
  expect(repeat).toMatchObject({ status: 202, body: accepted.body });
  expect(repeat.headers.get('Request-Id')).toBe('refresh/review-2026');

  const renewed = await eventually(
    () => readCase(caseId),
    (r) => r.body?.runId === accepted.body.runId && r.body?.state === 'completed',
    60_000,
  );
  expect(renewed.body.steps['credit-report'].attempt).toBe(before.body.steps['credit-report'].attempt + 1);
  expect(((await control(`/ledger?company_id=${companyId}`)).creditReports as unknown[]).length).toBe(2);

  const timeline = await api('GET', `/v1/cases/${caseId}/timeline`, { key: origination });
  const actions = timeline.body.entries.filter((e: { kind: string }) => e.kind === 'operator_action');
  expect(actions).toEqual([
    expect.objectContaining({
      action: 'refreshEvidence',
      step: 'credit-report',
      reason: 'annual review',
      requestId: 'refresh/review-2026',
      outcome: 'accepted',
    }),
  ]);
}, 150_000);

test('the OpenAPI document declares the refresh', async () => {
  const document = (await api('GET', '/openapi.json')).body;
  const operation = document.paths['/v1/cases/{caseId}/refresh'].post;
  expect(operation).toMatchObject({ operationId: 'refreshEvidence', 'x-required-role': 'operator' });
  expect(Object.keys(operation.responses)).toEqual(expect.arrayContaining(['202', '400', '404', '409', '422']));
  expect(document.components.schemas.EvidenceRefreshRequest.properties.items.items.enum).toEqual([
    'creditReport',
    'identityVerification',
    'bankTransactions',
    'affordability',
    'incomeEmployer',
  ]);
});
