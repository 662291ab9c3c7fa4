/**
 * The typed client is a package a lender's code imports by its name: what
 * `@verification-journeys/case-api-client` resolves to after `npm install` (its dist/, built by the
 * root's `prepare`), used against a running API: start a case, read it, act on it, read its
 * timeline, with the answers' types and headers as the document gives them.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import { createCaseApiClient, type CaseApiClient } from '@verification-journeys/case-api-client';
import { startStack, type Stack } from '../../cli/stack';
import { simulatorControl } from '../support/faultHarness/rawProviderApi';
import { testDirectory, testTemporalConfig, testWorkflowBundle, testCaseFileOption } from '../setup/testEnvironment';
import { waitUntil } from '../support/waitUntil';

let stack: Stack;
let operator: CaseApiClient;
let origination: CaseApiClient;

beforeAll(async () => {
  stack = await startStack({
    temporal: testTemporalConfig(),
    caseFile: testCaseFileOption(),
    workflowBundle: testWorkflowBundle(),
    simulatorSeed: 1231,
    spoolDir: testDirectory('spool'),
    processingDelayMs: 20,
  });
  operator = createCaseApiClient(stack.caseApi.url, stack.caseApiKeys!.operator);
  origination = createCaseApiClient(stack.caseApi.url, stack.caseApiKeys!.origination);
});

afterAll(async () => {
  await stack?.stop();
});

test('the package name resolves to what npm install built, as plain Node loads it (no TypeScript loader)', () => {
  const fromOutside = createRequire(path.join(__dirname, '..', '..', 'package.json'));
  const resolved = fromOutside.resolve('@verification-journeys/case-api-client');
  expect(path.relative(path.join(__dirname, '..', '..'), resolved)).toBe(
    path.join('packages', 'case-api-client', 'dist', 'index.js'),
  );
  expect(fromOutside('@verification-journeys/case-api-client/openapi.json')).toMatchObject({ openapi: '3.1.0' });
});

test('a case started, read, assigned and followed on its timeline through the package', async () => {
  const control = simulatorControl(stack.simulator);
  const caseId = (await control('/cases', {})).case_id as string;
  const ambiguous = ((await control('/companies')) as { company_id: string; company_name: string }[]).find(
    (c) => c.company_name === 'Ambiguous Foods Ltd',
  )!;
  const started = await origination.POST('/v1/cases', {
    body: {
      caseId,
      company: { company_id: ambiguous.company_id, company_name: ambiguous.company_name },
      steps: { creditReport: true },
      deadlines: { picklist: '5 minutes' },
    },
  });
  expect(started.response.status).toBe(201);
  expect(started.data).toMatchObject({ caseId, created: true });

  const waiting = await waitUntil('the picklist waits for an operator', async () => {
    const { data } = await origination.GET('/v1/cases/{caseId}', { params: { path: { caseId } } });
    return data?.state === 'needs_attention' ? data : undefined;
  });
  expect(waiting.steps['credit-report']).toMatchObject({ state: 'waiting' });

  const assigned = await operator.POST('/v1/cases/{caseId}/assign', {
    params: { path: { caseId } },
    body: { assignee: 'grace', reason: 'picklist' },
  });
  expect(assigned.data).toMatchObject({ caseId, assignee: 'grace' });
  const refused = await origination.POST('/v1/cases/{caseId}/assign', {
    params: { path: { caseId } },
    body: { assignee: 'grace' },
  });
  expect(refused.response.status).toBe(403);
  expect(refused.error).toMatchObject({ error: 'forbidden' });

  const { data: timeline } = await origination.GET('/v1/cases/{caseId}/timeline', { params: { path: { caseId } } });
  const actions = (timeline?.entries ?? []).flatMap((e) => (e.kind === 'operator_action' ? [e] : []));
  expect(actions).toEqual([
    expect.objectContaining({
      action: 'assign',
      assignee: 'grace',
      requestId: assigned.response.headers.get('Request-Id'),
    }),
  ]);
  await operator.POST('/v1/cases/{caseId}/cancel', { params: { path: { caseId } }, body: {} });
});
