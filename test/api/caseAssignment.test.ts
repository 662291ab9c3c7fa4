/**
 * Assignment over the case API against a running stack: an operator assigns a case to a
 * colleague and releases it, each on the case's timeline with its actor; the list filters on the
 * assignee; an origination key may not assign, an unknown case is a 404, and the document has it.
 */
import type { Company } from '../../simulator/store';
import { startStack, type Stack } from '../../cli/stack';
import { journeyProgram, type Outcome, type Run } from '../../cli/journeyProgram';
import { testDirectory, testTemporalConfig, testWorkflowBundle, testCaseFileOption } from '../setup/testEnvironment';
import { caseApiClient, eventually } from '../support/caseApiClient';
import { simulatorControl } from '../support/faultHarness/rawProviderApi';

let stack: Stack;
let api: ReturnType<typeof caseApiClient>;

beforeAll(async () => {
  stack = await startStack({
    temporal: testTemporalConfig(),
    caseFile: testCaseFileOption(),
    workflowBundle: testWorkflowBundle(),
    simulatorSeed: 1221,
    spoolDir: testDirectory('spool'),
    processingDelayMs: 20,
  });
  api = caseApiClient(stack.caseApi.url);
});

afterAll(async () => {
  await stack?.stop();
});

const control = (path: string, body?: unknown) => simulatorControl(stack.simulator)(path, body);

/** `journey <args> --json` through the CLI's own code, on the stack's client and case file. */
async function journeyJson(...args: string[]): Promise<unknown> {
  let run: Run | undefined;
  journeyProgram((chosen) => (run = chosen)).parse(['--json', ...args], { from: 'user' });
  const outcome: Outcome = await (run as Run)(
    { client: stack.client, taskQueue: stack.temporal.taskQueue, caseFile: async () => stack.caseFile },
    { json: true, print: () => undefined, progress: () => undefined },
  );
  expect(outcome.failed).toBeFalsy();
  return outcome.json;
}

test('an operator assigns a case to a colleague and releases it; the list filters on the assignee and the timeline names who did it', async () => {
  const { operator, origination } = stack.caseApiKeys!;
  // The run's suites share one case file: a name of this test's own, so the list finds only its case.
  const grace = `grace-${Math.random().toString(36).slice(2, 8)}`;
  const caseId = (await control('/cases', {})).case_id as string;
  const ambiguous = ((await control('/companies')) as Company[]).find((c) => c.company_name === 'Ambiguous Foods Ltd')!;
  const input = {
    caseId,
    company: { company_id: ambiguous.company_id },
    steps: { creditReport: true },
    deadlines: { picklist: '5 minutes' },
  };
  expect((await api('POST', '/v1/cases', { key: origination, body: input })).status).toBe(201);
  await eventually(
    () => api('GET', `/v1/cases/${caseId}`, { key: origination }),
    (r) => r.status === 200,
  );

  expect(
    (await api('POST', `/v1/cases/${caseId}/assign`, { key: origination, body: { assignee: grace } })).status,
  ).toBe(403);
  expect(
    (await api('POST', '/v1/cases/no-such-case/assign', { key: operator, body: { assignee: grace } })).status,
  ).toBe(404);
  expect((await api('POST', `/v1/cases/${caseId}/assign`, { key: operator, body: { assignee: '   ' } })).status).toBe(
    400,
  );

  const assigned = await api('POST', `/v1/cases/${caseId}/assign`, {
    key: operator,
    body: { assignee: grace, reason: 'she spoke to the director' },
  });
  expect(assigned).toMatchObject({ status: 200, body: { caseId, assignee: grace, assignedAt: expect.any(String) } });
  expect((await api('GET', `/v1/cases/${caseId}`, { key: origination })).body).toMatchObject({
    caseId,
    assignee: grace,
  });
  const graces = await api('GET', `/v1/cases?assignee=${grace}`, { key: origination });
  expect(graces.body.cases).toEqual([expect.objectContaining({ caseId, assignee: grace })]);
  const unowned = await api('GET', '/v1/cases?assignee=', { key: origination });
  expect(unowned.body.cases.map((c: { caseId: string }) => c.caseId)).not.toContain(caseId);
  expect(await journeyJson('list', '--assignee', grace)).toEqual([
    expect.objectContaining({ caseId, assignee: grace }),
  ]);
  expect((await journeyJson('list', '--unassigned')) as { caseId: string }[]).not.toContainEqual(
    expect.objectContaining({ caseId }),
  );

  expect(await api('POST', `/v1/cases/${caseId}/assign`, { key: operator, body: { assignee: null } })).toMatchObject({
    status: 200,
    body: { assignee: null, assignedAt: null },
  });
  const timeline = await api('GET', `/v1/cases/${caseId}/timeline`, { key: origination });
  const actions = timeline.body.entries.filter((e: { kind: string }) => e.kind === 'operator_action');
  expect(actions).toEqual([
    expect.objectContaining({
      action: 'assign',
      actor: 'embedded-operator',
      assignee: grace,
      reason: 'she spoke to the director',
      outcome: 'accepted',
    }),
    expect.objectContaining({ action: 'release', actor: 'embedded-operator', assignee: null, outcome: 'accepted' }),
  ]);
  await api('POST', `/v1/cases/${caseId}/cancel`, { key: operator, body: {} });
});

test('the OpenAPI document describes assignment and the assignee filter', async () => {
  const document = (await api('GET', '/openapi.json')).body;
  expect(document.paths['/v1/cases/{caseId}/assign'].post).toMatchObject({
    operationId: 'assignCase',
    'x-required-role': 'operator',
  });
  expect(document.paths['/v1/cases'].get.parameters.map((p: { name: string }) => p.name)).toContain('assignee');
  expect(document.components.schemas.AssignCaseRequest.properties.assignee).toBeDefined();
});
