/**
 * The case API over real HTTP against a running stack (dev server, simulator, bridge, worker):
 * idempotent start, status, picklist, retry and waive, refusals with the journey's message,
 * authentication and roles, pagination, and the OpenAPI document.
 */
import type { Company } from '../../simulator/store';
import { request } from 'node:http';
import { validate } from '@readme/openapi-parser';
import { startStack, type Stack } from '../../cli/stack';
import { testDirectory, testTemporalConfig, testWorkflowBundle, testCaseFileOption } from '../setup/testEnvironment';
import { caseApiClient, eventually } from '../support/caseApiClient';
import { simulatorControl } from '../support/faultHarness/rawProviderApi';

let stack: Stack;

/** An operation as the OpenAPI document lists it, as far as these tests read it. */
interface DocumentedOperation {
  operationId: string;
  responses: Record<string, unknown>;
}
let api: ReturnType<typeof caseApiClient>;
let operator: string;
let origination: string;

beforeAll(async () => {
  stack = await startStack({
    temporal: testTemporalConfig(),
    caseFile: testCaseFileOption(),
    workflowBundle: testWorkflowBundle(),
    simulatorSeed: 1201,
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
const fast = {
  identityVerification: '30 seconds',
  banking: '30 seconds',
  affordability: '30 seconds',
  picklist: '30 seconds',
};
const readCase = (caseId: string) => api('GET', `/v1/cases/${caseId}`, { key: origination });

async function picklistCase() {
  const caseId = (await control('/cases', {})).case_id as string;
  const ambiguous = ((await control('/companies')) as Company[]).find((c) => c.company_name === 'Ambiguous Foods Ltd')!;
  return {
    caseId,
    input: { caseId, company: { company_id: ambiguous.company_id }, steps: { creditReport: true }, deadlines: fast },
  };
}

test('a case started twice runs one journey; its picklist is resolved by an operator and the journey completes', async () => {
  const { caseId, input } = await picklistCase();
  const first = await api('POST', '/v1/cases', { key: origination, body: input });
  expect(first).toMatchObject({ status: 201, body: { caseId, workflowId: `case/${caseId}`, created: true } });
  const again = await api('POST', '/v1/cases', { key: origination, body: input });
  expect(again).toMatchObject({ status: 200, body: { caseId, created: false, runId: null } });

  const waiting = await eventually(
    () => readCase(caseId),
    (r) => r.body?.steps?.['credit-report']?.state === 'waiting',
  );
  const picklist = waiting.body.steps['credit-report'].picklist as { provider_id: string }[];
  expect(picklist.length).toBeGreaterThan(1);

  expect(
    (
      await api('POST', `/v1/cases/${caseId}/picklist`, {
        key: origination,
        body: { providerId: picklist[0]!.provider_id },
      })
    ).status,
  ).toBe(403);
  const refused = await api('POST', `/v1/cases/${caseId}/picklist`, {
    key: operator,
    body: { providerId: 'CR-NOT-LISTED' },
  });
  expect(refused.status).toBe(409);
  expect(refused.body).toMatchObject({
    error: 'action_refused',
    message: expect.stringContaining(picklist[0]!.provider_id),
  });

  const resolved = await api('POST', `/v1/cases/${caseId}/picklist`, {
    key: operator,
    body: { providerId: picklist[0]!.provider_id },
  });
  expect(resolved).toMatchObject({ status: 200, body: { step: 'credit-report' } });
  const done = await eventually(
    () => readCase(caseId),
    (r) => r.body.runStatus === 'COMPLETED',
  );
  expect(done.body).toMatchObject({
    state: 'completed',
    steps: { 'credit-report': { state: 'completed', picklist: null } },
  });
  // The report the journey bought is in the case file, and the LOS reads it from there.
  const evidence = await api('GET', `/v1/cases/${caseId}/evidence`, { key: origination });
  expect(evidence.status).toBe(200);
  expect(evidence.body.creditReports).toEqual([expect.objectContaining({ case_id: caseId })]);
  expect((await api('GET', '/v1/cases/no-such-case/evidence', { key: origination })).status).toBe(404);

  const runs = await stack.client.workflowService.listWorkflowExecutions({
    namespace: 'default',
    query: `WorkflowId = "case/${caseId}"`,
  });
  expect(runs.executions).toHaveLength(1);
  // A closed journey refuses actions by name, not as an unknown case.
  const closed = await api('POST', `/v1/cases/${caseId}/steps/credit-report/retry`, { key: operator, body: {} });
  expect(closed).toMatchObject({ status: 409, body: { error: 'case_closed' } });
  expect((await api('POST', '/v1/cases', { key: origination, body: input })).status).toBe(200);
});

test("an operator retries an expired IDV (step key URL-encoded) and waives banking; refusals carry the validator's message", async () => {
  const caseId = (await control('/cases', {})).case_id as string;
  const personId = (await control('/persons', {})).person_id as string;
  const idv = `identity-verification/${personId}`;
  const input = {
    caseId,
    people: [{ personId }],
    steps: { identityVerification: true, banking: 'open_banking' },
    deadlines: fast,
  };
  expect((await api('POST', '/v1/cases', { key: origination, body: input })).status).toBe(201);
  const waiting = await eventually(
    () => readCase(caseId),
    (r) => r.body?.steps?.[idv]?.state === 'waiting' && r.body.steps.banking?.state === 'waiting',
  );
  expect(Object.keys(waiting.body.steps[idv].links ?? {})).not.toHaveLength(0);
  await control(`/identity-verifications/${waiting.body.steps[idv].providerIds.request_id}/expire`, {});
  await control(`/open-banking-connections/${waiting.body.steps.banking.providerIds.bank_connection_id}/complete`, {
    status: 'Rejected',
  });
  const attention = await eventually(
    () => readCase(caseId),
    (r) => r.body.operatorDeadline != null,
  );
  expect(attention.body).toMatchObject({
    state: 'needs_attention',
    steps: { [idv]: { state: 'expired' }, banking: { state: 'needs_attention' } },
  });
  expect(attention.body.reasons.length).toBeGreaterThan(0);

  const step = encodeURIComponent(idv);
  expect((await api('POST', `/v1/cases/${caseId}/steps/${step}/retry`, { key: origination, body: {} })).status).toBe(
    403,
  );
  const noReason = await api('POST', `/v1/cases/${caseId}/steps/banking/waive`, { key: operator, body: {} });
  expect(noReason).toMatchObject({
    status: 400,
    body: { error: 'invalid_request', message: expect.stringContaining('reason') },
  });
  const unknownStep = await api('POST', `/v1/cases/${caseId}/steps/nope/retry`, { key: operator, body: {} });
  expect(unknownStep.status).toBe(409);
  expect(unknownStep.body.message).toMatch(/nope/);

  const retried = await api('POST', `/v1/cases/${caseId}/steps/${step}/retry`, {
    key: operator,
    body: { reason: 'applicant asked for a new link' },
  });
  expect(retried).toMatchObject({ status: 200, body: { step: idv, status: { attempt: 2 } } });
  const waived = await api('POST', `/v1/cases/${caseId}/steps/banking/waive`, {
    key: operator,
    body: { reason: 'bank statements posted in' },
  });
  expect(waived).toMatchObject({ status: 200, body: { step: 'banking', status: { state: 'waived' } } });

  const second = await eventually(
    () => readCase(caseId),
    (r) => r.body.steps[idv].state === 'waiting' && r.body.steps[idv].attempt === 2,
  );
  expect(second.body.steps[idv].attempts.map((a: { attempt: number }) => a.attempt)).toEqual([1, 2]);
  await control(`/identity-verifications/${second.body.steps[idv].providerIds.request_id}/complete`, {
    verification_status: 'Approved',
  });
  const done = await eventually(
    () => readCase(caseId),
    (r) => r.body.runStatus === 'COMPLETED',
  );
  expect(done.body).toMatchObject({
    state: 'completed',
    steps: { [idv]: { state: 'completed' }, banking: { state: 'waived' } },
  });
});

/**
 * A running journey whose income-employer step failed: the provider answers 503 to every call for
 * it (a refusal: nothing was made, so the call is sent again rather than looked for).
 */
async function failedIncomeEmployer(): Promise<string> {
  const caseId = (await control('/cases', {})).case_id as string;
  await control('/faults', { method: 'POST', path: `/v2/cases/${caseId}/income-employer`, status: 503, times: 500 });
  expect(
    (
      await api('POST', '/v1/cases', {
        key: origination,
        body: { caseId, steps: { incomeEmployer: true }, deadlines: { providerCalls: '3 seconds' } },
      })
    ).status,
  ).toBe(201);
  await eventually(
    () => readCase(caseId),
    (r) => r.body?.steps?.['income-employer']?.state === 'failed',
  );
  return caseId;
}
const attemptsOf = async (caseId: string) => (await readCase(caseId)).body.steps['income-employer'].attempts.length;

test('an Idempotency-Key makes an operator action safe to repeat: the same key answers the first result, one new attempt; a bad key is 400', async () => {
  const caseId = await failedIncomeEmployer();
  const retry = (key: string, step = 'income-employer', body: unknown = { reason: 'provider back' }) =>
    api('POST', `/v1/cases/${caseId}/steps/${step}/retry`, {
      key: operator,
      body,
      headers: { 'Idempotency-Key': key },
    });

  const tooLong = await retry('k'.repeat(201));
  expect(tooLong).toMatchObject({
    status: 400,
    body: { error: 'invalid_request', message: expect.stringContaining('Idempotency-Key') },
  });
  expect((await retry('caf\u00e9')).status).toBe(400);
  expect((await retry('k1', 'income-employer', { fresh: 'yes' })).body.message).toContain('fresh');
  expect(await attemptsOf(caseId)).toBe(1);

  const first = await retry('k1');
  expect(first).toMatchObject({ status: 200, body: { step: 'income-employer', status: { attempt: 2 } } });
  // A client that lost the answer sends the request again: the first answer, nothing new.
  const repeated = await retry('k1');
  expect(repeated.status).toBe(200);
  expect(repeated.body).toEqual(first.body);
  // The case file shows the second attempt once it has failed too; a new key then starts the third,
  // which the workflow numbers itself: the repeated request added no attempt.
  await eventually(
    () => readCase(caseId),
    (r) =>
      r.body?.steps?.['income-employer']?.attempts?.length === 2 && r.body.steps['income-employer'].state === 'failed',
  );
  expect(await retry('k2')).toMatchObject({ status: 200, body: { status: { attempt: 3 } } });
  // The same key for another step is another request: refused, not answered with the first's result.
  expect(await retry('k1', 'banking')).toMatchObject({
    status: 422,
    body: { error: 'idempotency_key_reused', message: expect.stringContaining('income-employer') },
  });
  await api('POST', `/v1/cases/${caseId}/cancel`, { key: operator, body: {} });
});

test('POST /v1/cases/retry-step: a dry run answers the plan; the run retries each case once; the same requestId again adds no attempt; a bad query is 400', async () => {
  const failed = await Promise.all([0, 1].map(() => failedIncomeEmployer()));
  const where = `CaseId IN (${failed.map((id) => `'${id}'`).join(', ')})`;
  const bulk = (body: Record<string, unknown>, key = operator) =>
    api('POST', '/v1/cases/retry-step', {
      key,
      body: { where, step: 'income-employer', reason: 'provider outage', ...body },
    });

  expect((await bulk({}, origination)).status).toBe(403);
  expect(await bulk({ where: undefined })).toMatchObject({
    status: 400,
    body: { message: expect.stringContaining('where') },
  });
  expect(await bulk({ concurrency: 17 })).toMatchObject({
    status: 400,
    body: { message: expect.stringContaining('concurrency') },
  });
  const badQuery = await bulk({ where: 'NoSuchAttribute = 1' });
  expect(badQuery).toMatchObject({
    status: 400,
    body: { error: 'invalid_query', message: expect.stringContaining('NoSuchAttribute') },
  });

  // Visibility lags a start by a moment.
  const plan = await eventually(
    () => bulk({}),
    (r) => r.status !== 200 || r.body.cases.length === failed.length,
  );
  expect(plan).toMatchObject({
    status: 200,
    body: { dryRun: true, step: 'income-employer', more: false, requestId: expect.any(String) },
  });
  expect(plan.body.cases.map((c: { caseId: string; stepState: string }) => [c.caseId, c.stepState]).sort()).toEqual(
    failed.map((id) => [id, 'failed']).sort(),
  );
  for (const id of failed) expect(await attemptsOf(id)).toBe(1);

  const run = await bulk({ dryRun: false, requestId: plan.body.requestId });
  expect(run).toMatchObject({
    status: 200,
    body: { dryRun: false, requestId: plan.body.requestId, cases: 2, refused: [], failed: [] },
  });
  expect(run.body.accepted.map((a: { caseId: string; attempt: number }) => [a.caseId, a.attempt]).sort()).toEqual(
    failed.map((id) => [id, 2]).sort(),
  );
  const again = await bulk({ dryRun: false, requestId: plan.body.requestId });
  expect(again.body).toMatchObject({ cases: 2, refused: [], failed: [] });
  // The same requestId is the same Update per case: the workflow answers the attempt it already ran.
  expect(again.body.accepted.map((a: { caseId: string; attempt: number }) => [a.caseId, a.attempt]).sort()).toEqual(
    failed.map((id) => [id, 2]).sort(),
  );
  // The case file catches up with the workflow a moment later.
  for (const id of failed)
    await eventually(
      () => attemptsOf(id),
      (n) => n === 2,
    );
  for (const id of failed) await api('POST', `/v1/cases/${id}/cancel`, { key: operator, body: {} });
});

test('keys: none or unknown is 401, the wrong role 403, with JSON bodies; an unknown case is 404', async () => {
  const none = await api('GET', '/v1/cases');
  expect(none).toMatchObject({ status: 401, body: { error: 'unauthenticated' } });
  expect(none.headers.get('www-authenticate')).toMatch(/^Bearer/);
  expect(await api('GET', '/v1/cases', { key: `${operator}x` })).toMatchObject({
    status: 401,
    body: { error: 'invalid_key' },
  });
  expect(await api('POST', '/v1/cases/some-case/cancel', { key: origination, body: {} })).toMatchObject({
    status: 403,
    body: { error: 'forbidden', message: expect.stringContaining('operator') },
  });
  expect(await api('GET', '/v1/cases/no-such-case', { key: origination })).toMatchObject({
    status: 404,
    body: { error: 'case_not_found' },
  });
  expect((await api('POST', '/v1/cases/no-such-case/steps/banking/retry', { key: operator, body: {} })).status).toBe(
    404,
  );
  expect(
    await api('POST', '/v1/cases', { key: origination, body: { caseId: 'x', steps: { creditReport: true } } }),
  ).toMatchObject({ status: 400, body: { message: expect.stringContaining('company') } });
  const tooBig = await api('POST', '/v1/cases', { key: origination, body: { caseId: 'x'.repeat(100_000), steps: {} } });
  expect(tooBig).toMatchObject({ status: 413, body: { error: 'body_too_large' } });
  expect(tooBig.headers.get('x-content-type-options')).toBe('nosniff');
});

test('a case id is checked by one schema on every route: none can name another workflow, none is too long', async () => {
  // The id of case V's next IDV attempt: started as a case, it would take that workflow id.
  const naming = await api('POST', '/v1/cases', {
    key: origination,
    body: { caseId: 'V/identity-verification/nobody/2', steps: {} },
  });
  expect(naming).toMatchObject({ status: 400, body: { message: expect.stringContaining('caseId') } });
  const long = 'c'.repeat(60_000);
  expect(await api('POST', '/v1/cases', { key: origination, body: { caseId: long, steps: {} } })).toMatchObject({
    status: 400,
    body: { message: expect.stringContaining('caseId') },
  });
  expect((await api('GET', `/v1/cases/${'c'.repeat(201)}`, { key: origination })).status).toBe(400);
  expect(
    (await api('GET', `/v1/cases/${encodeURIComponent('V/identity-verification/nobody/2')}`, { key: origination }))
      .status,
  ).toBe(400);
});

test('cases are listed by state a page at a time; a cancelled case ends cancelled', async () => {
  const started: string[] = [];
  for (let i = 0; i < 3; i++) {
    const { caseId, input } = await picklistCase();
    expect((await api('POST', '/v1/cases', { key: origination, body: input })).status).toBe(201);
    started.push(caseId);
  }
  const byState = (state: string, pageToken?: string) =>
    api('GET', `/v1/cases?state=${state}&pageSize=2${pageToken ? `&pageToken=${pageToken}` : ''}`, {
      key: origination,
    });
  // `running` lasts only until the credit report shows its picklist (a second or so): the state
  // they stay in is needs_attention, waiting for an operator's choice.
  for (const caseId of started)
    await eventually(
      () => readCase(caseId),
      (r) => r.body.state === 'needs_attention',
    );
  const everyPage = async (state: string) => {
    const ids: string[] = [];
    let token: string | undefined;
    do {
      const page = await byState(state, token);
      expect(page.status).toBe(200);
      expect(page.body.cases.length).toBeLessThanOrEqual(2);
      ids.push(...page.body.cases.map((c: { caseId: string }) => c.caseId));
      token = page.body.nextPageToken ?? undefined;
    } while (token);
    return ids;
  };
  // The list reads Temporal's visibility store, which lags the journeys' own state a little.
  const pages = await eventually(
    () => everyPage('needs_attention'),
    (ids) => started.every((id) => ids.includes(id)),
  );
  expect(pages).toEqual(expect.arrayContaining(started));
  expect(new Set(pages).size).toBe(pages.length);
  expect((await api('GET', '/v1/cases?pageToken=not-a-token!', { key: origination })).status).toBe(400);

  const cancelled = await api('POST', `/v1/cases/${started[0]}/cancel`, {
    key: operator,
    body: { reason: 'applicant withdrew' },
  });
  expect(cancelled).toMatchObject({ status: 202, body: { caseId: started[0], cancelRequested: true } });
  await eventually(
    () => readCase(started[0]!),
    (r) => r.body.runStatus === 'COMPLETED' && r.body.state === 'cancelled',
  );
  await eventually(
    () => byState('cancelled'),
    (r) => r.body.cases.some((c: { caseId: string }) => c.caseId === started[0]),
  );
  for (const caseId of started.slice(1)) await api('POST', `/v1/cases/${caseId}/cancel`, { key: operator, body: {} });
});

test('the OpenAPI document validates, and every operation in it answers with a documented status', async () => {
  const document = (await api('GET', '/openapi.json')).body;
  await expect(validate(structuredClone(document))).resolves.toMatchObject({ valid: true });
  const reference = await fetch(`${stack.caseApi.url}/docs`);
  expect(reference.headers.get('content-type')).toMatch(/text\/html/);
  const page = await reference.text();

  const { caseId, input } = await picklistCase();
  await api('POST', '/v1/cases', { key: origination, body: input });
  const bodies: Record<string, unknown> = {
    startCase: input,
    waiveStep: { reason: 'test' },
    resolvePicklist: { providerId: 'CR-NOT-LISTED' },
  };
  let operations = 0;
  for (const [path, methods] of Object.entries(document.paths as Record<string, Record<string, DocumentedOperation>>)) {
    for (const [method, op] of Object.entries(methods)) {
      const url = path.replace('{caseId}', caseId).replace('{step}', 'credit-report');
      const answer = await api(method.toUpperCase(), url, {
        key: operator,
        body: method === 'post' ? (bodies[op.operationId] ?? {}) : undefined,
      });
      const documented = Object.keys(op.responses).includes(String(answer.status));
      // An undocumented answer shows itself: its status and body.
      expect({
        op: op.operationId,
        documented,
        ...(documented ? {} : { status: answer.status, body: answer.body }),
      }).toEqual({ op: op.operationId, documented: true });
      expect(page).toContain(op.operationId);
      operations++;
    }
  }
  expect(operations).toBe(14);
});

/** A request fetch refuses to send (TRACE), or with exactly the bytes given: node:http. */
function rawRequest(
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: string,
): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(`${stack.caseApi.url}${path}`, { method, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('the document is the contract', () => {
  test('an unknown query parameter is refused at once with a 400 that names it, non-ASCII names included', async () => {
    for (const path of [
      '/v1/cases?%C3%A9t%C3%A4t=1',
      '/v1/cases?statee=running',
      '/v1/cases/some-case?verbose=1',
      '/v1/cases?state=running&%F0%9F%92%A5=%FF',
    ]) {
      const began = Date.now();
      const answer = await rawRequest('GET', path, { authorization: `Bearer ${origination}` });
      expect({ path, status: answer.status, error: JSON.parse(answer.body).error }).toEqual({
        path,
        status: 400,
        error: 'invalid_request',
      });
      expect(Date.now() - began).toBeLessThan(1000);
    }
    expect((await api('GET', '/v1/cases?%C3%A9t%C3%A4t=1', { key: origination })).body.message).toContain(
      '\u00e9t\u00e4t',
    );
    expect(
      (
        await api('POST', '/v1/cases/retry-step?force=1', {
          key: operator,
          body: { where: 'CaseId = "x"', step: 'banking' },
        })
      ).body.message,
    ).toContain('force');
  });

  test('a pageToken that is no token is a fast 400, not a 500 after Temporal gives up', async () => {
    for (const token of ['AAAA', 'eyJ4Ijox', 'w6k', '_-_-']) {
      const began = Date.now();
      const answer = await api('GET', `/v1/cases?pageToken=${token}`, { key: origination });
      expect({ token, status: answer.status }).toEqual({ token, status: 400 });
      expect(Date.now() - began).toBeLessThan(2000);
    }
  });

  test("POST /v1/cases documents what it accepts: no carryOver (that is journey retry's), which is refused by name", async () => {
    const document = (await api('GET', '/openapi.json')).body;
    expect(Object.keys(document.components.schemas.StartCaseRequest.properties)).not.toContain('carryOver');
    const { input } = await picklistCase();
    const refused = await api('POST', '/v1/cases', { key: origination, body: { ...input, carryOver: { steps: {} } } });
    expect(refused).toMatchObject({
      status: 400,
      body: { error: 'invalid_request', message: expect.stringContaining('carryOver') },
    });
  });

  test('POST /v1/cases refuses a deadline no timer of the journey could run, naming it; the document shows what it takes', async () => {
    for (const picklist of ['1 xyz', '0', '1000000 years', 0, 1e15]) {
      const { input } = await picklistCase();
      const refused = await api('POST', '/v1/cases', { key: origination, body: { ...input, deadlines: { picklist } } });
      expect({ picklist, status: refused.status, message: refused.body.message }).toEqual({
        picklist,
        status: 400,
        message: expect.stringContaining('deadlines.picklist'),
      });
    }
    const document = (await api('GET', '/openapi.json')).body;
    const [, text] = document.components.schemas.StartCaseRequest.properties.deadlines.additionalProperties.anyOf;
    expect(['2 days', '90 minutes', '1.5h'].every((d) => new RegExp(text.pattern).test(d))).toBe(true);
    expect(new RegExp(text.pattern).test('1 xyz')).toBe(false);
  });

  test("POST /v1/cases takes a case's own reminder and SLA times and refuses one no sweep could use, naming it; the events of an unknown case are a 404", async () => {
    const { input } = await picklistCase();
    const refused = await api('POST', '/v1/cases', {
      key: origination,
      body: { ...input, notifications: { attentionSla: '1 xyz' } },
    });
    expect(refused).toMatchObject({
      status: 400,
      body: { message: expect.stringContaining('notifications.attentionSla') },
    });
    const unknown = await api('POST', '/v1/cases', {
      key: origination,
      body: { ...input, notifications: { remindEvery: '1 day' } },
    });
    expect(unknown).toMatchObject({ status: 400, body: { message: expect.stringContaining('remindEvery') } });
    const started = await api('POST', '/v1/cases', {
      key: origination,
      body: { ...input, notifications: { applicantActionDueAfter: '2 hours', attentionSla: 60_000 } },
    });
    expect(started.status).toBe(201);
    expect(
      await eventually(
        () => api('GET', `/v1/cases/${input.caseId}/events`, { key: origination }),
        (r) => r.status === 200,
      ),
    ).toMatchObject({ body: { caseId: input.caseId, events: expect.any(Array) } });
    expect((await api('GET', '/v1/cases/no-such-case/events', { key: origination })).status).toBe(404);
    await api('POST', `/v1/cases/${input.caseId}/cancel`, { key: operator, body: {} });
    // A fraction of a millisecond is a duration the document allows: kept as whole milliseconds
    // (the contract test found a 500).
    const fractional = (await picklistCase()).input;
    expect(
      (
        await api('POST', '/v1/cases', {
          key: origination,
          body: { ...fractional, notifications: { attentionSla: '7.52 msec' } },
        })
      ).status,
    ).toBe(201);
    await api('POST', `/v1/cases/${fractional.caseId}/cancel`, { key: operator, body: {} });
  });

  test('a method a path does not have is 405 with Allow, whoever asks', async () => {
    for (const [method, path, allow] of [
      ['TRACE', '/v1/cases', 'GET, HEAD, POST'],
      ['DELETE', '/v1/cases/some-case', 'GET, HEAD'],
      ['PUT', '/v1/cases/some-case/cancel', 'POST'],
      ['PATCH', '/v1/cases/some-case/steps/banking/retry', 'POST'],
    ] as const) {
      for (const headers of [{ authorization: `Bearer ${operator}` }, {}] as Record<string, string>[]) {
        const answer = await rawRequest(method, path, headers);
        expect({
          method,
          path,
          status: answer.status,
          allow: answer.headers.allow,
          error: JSON.parse(answer.body).error,
        }).toEqual({ method, path, status: 405, allow, error: 'method_not_allowed' });
      }
    }
    // The concrete path is the one a URL names (as in OpenAPI): retry-step is not a case id.
    const concrete = await rawRequest('GET', '/v1/cases/retry-step', { authorization: `Bearer ${operator}` });
    expect({ status: concrete.status, allow: concrete.headers.allow }).toEqual({ status: 405, allow: 'POST' });
    // A path the API does not have at all stays 404.
    expect((await rawRequest('TRACE', '/v1/nothing-here', { authorization: `Bearer ${operator}` })).status).toBe(404);
  });

  test('a required body is required: an action without one is 400, not accepted', async () => {
    const { caseId, input } = await picklistCase();
    expect((await api('POST', '/v1/cases', { key: origination, body: input })).status).toBe(201);
    for (const path of [`/v1/cases/${caseId}/cancel`, `/v1/cases/${caseId}/steps/credit-report/retry`, '/v1/cases']) {
      const key = path === '/v1/cases' ? origination : operator;
      for (const headers of [
        {},
        { 'content-type': 'application/json', 'content-length': '0' },
        { 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
      ] as Record<string, string>[]) {
        const answer = await rawRequest('POST', path, { authorization: `Bearer ${key}`, ...headers });
        expect({ path, headers, status: answer.status, body: JSON.parse(answer.body) }).toEqual({
          path,
          headers,
          status: 400,
          body: { error: 'invalid_request', message: expect.stringContaining('body is required') },
        });
      }
    }
    expect((await readCase(caseId)).body.state).not.toBe('cancelled');
    expect((await api('POST', `/v1/cases/${caseId}/cancel`, { key: operator, body: {} })).status).toBe(202);
  });

  test('a NUL character in any string of a request is a 400 naming the field (the case file cannot store one; in an id, a 422 invalid_id), and the document says so', async () => {
    const { caseId, input } = await picklistCase();
    expect((await api('POST', '/v1/cases', { key: origination, body: input })).status).toBe(201);
    await eventually(
      () => readCase(caseId),
      (r) => r.body?.steps?.['credit-report']?.state === 'waiting',
    );
    const waive = await api('POST', `/v1/cases/${caseId}/steps/credit-report/waive`, {
      key: operator,
      body: { reason: 'posted\u0000in' },
    });
    expect(waive).toMatchObject({
      status: 400,
      body: { error: 'invalid_request', message: expect.stringContaining('reason holds a NUL') },
    });
    const picklist = await api('POST', `/v1/cases/${caseId}/picklist`, {
      key: operator,
      body: { providerId: 'CR\u0000' },
    });
    expect(picklist).toMatchObject({
      status: 422,
      body: { error: 'invalid_id', message: expect.stringContaining('providerId: must be at most 200 characters') },
    });
    const person = await api('POST', '/v1/cases', {
      key: origination,
      body: { caseId: `${caseId}-2`, people: [{ personId: 'p\u0000' }], steps: { identityVerification: true } },
    });
    expect(person).toMatchObject({
      status: 422,
      body: {
        error: 'invalid_id',
        message: expect.stringContaining('people.0.personId: must be at most 200 characters'),
      },
    });
    expect((await readCase(caseId)).body.steps['credit-report'].state).toBe('waiting');
    const document = (await api('GET', '/openapi.json')).body;
    expect(
      new RegExp(document.components.schemas.WaiveStepRequest.properties.reason.pattern).test('posted\u0000in'),
    ).toBe(false);
    await api('POST', `/v1/cases/${caseId}/cancel`, { key: operator, body: {} });
  });

  test("an action the journey refuses in its state is 409 with the journey's message; a closed journey too", async () => {
    const { caseId, input } = await picklistCase();
    expect(
      (
        await api('POST', '/v1/cases', {
          key: origination,
          body: { ...input, steps: { ...input.steps, banking: 'open_banking' } },
        })
      ).status,
    ).toBe(201);
    await eventually(
      () => readCase(caseId),
      (r) => r.body?.steps?.['credit-report']?.state === 'waiting',
    );
    const waive = () =>
      api('POST', `/v1/cases/${caseId}/steps/credit-report/waive`, {
        key: operator,
        body: { reason: 'report posted in' },
      });
    expect((await waive()).status).toBe(200);
    expect(await waive()).toMatchObject({
      status: 409,
      body: { error: 'action_refused', message: expect.stringContaining('credit-report is waived already') },
    });
    expect((await api('POST', `/v1/cases/${caseId}/cancel`, { key: operator, body: { reason: 'test' } })).status).toBe(
      202,
    );
    // The read model's last write comes just before the run closes: wait for the run itself.
    await stack.client.workflow
      .getHandle(`case/${caseId}`)
      .result()
      .catch(() => undefined);
    expect(await api('POST', `/v1/cases/${caseId}/cancel`, { key: operator, body: {} })).toMatchObject({
      status: 409,
      body: { error: 'case_closed' },
    });
    expect(
      await api('POST', `/v1/cases/${caseId}/steps/credit-report/waive`, { key: operator, body: { reason: 'x' } }),
    ).toMatchObject({ status: 409, body: { error: 'case_closed' } });
    const document = (await api('GET', '/openapi.json')).body;
    for (const op of ['retryStep', 'waiveStep', 'resolvePicklist', 'cancelCase']) {
      const operation = Object.values(document.paths as Record<string, Record<string, DocumentedOperation>>)
        .flatMap((m) => Object.values(m))
        .find((o) => o.operationId === op);
      expect({ op, documented: Object.keys(operation!.responses) }).toEqual({
        op,
        documented: expect.arrayContaining(['409']),
      });
    }
  });

  test('a cancel that meets the journey while it closes is 409 case_closed, as on a closed one', async () => {
    const { caseId, input } = await picklistCase();
    expect((await api('POST', '/v1/cases', { key: origination, body: input })).status).toBe(201);
    await eventually(
      () => readCase(caseId),
      (r) => r.body?.steps?.['credit-report']?.state === 'waiting',
    );
    expect((await api('POST', `/v1/cases/${caseId}/cancel`, { key: operator, body: { reason: 'first' } })).status).toBe(
      202,
    );
    // Back to back until refused: the journey's close takes a workflow task or two, and Temporal
    // answers "workflow is closing" to a signal in that moment (client/temporalRetry.ts).
    const answers: { status: number; error?: string }[] = [];
    while (answers.at(-1)?.status !== 409 && answers.length < 500) {
      const answer = await api('POST', `/v1/cases/${caseId}/cancel`, { key: operator, body: { reason: 'again' } });
      answers.push({ status: answer.status, error: answer.body?.error || undefined });
    }
    expect(answers.at(-1)).toEqual({ status: 409, error: 'case_closed' });
    expect(answers.slice(0, -1).every((a) => a.status === 202)).toBe(true);
  });
});
