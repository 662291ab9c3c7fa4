/**
 * Every operator action is audited under a request id, and the caller is told which:
 * the API answers it in `Request-Id` (an id of its own, or with an Idempotency-Key the key's Update
 * id), the CLI prints it, and the case's timeline shows the same id on the action's entry,
 * refused or accepted. Cancel and assign take no Idempotency-Key, and have one too.
 */
import { startStack, type Stack } from '../../cli/stack';
import { journeyProgram, type Run } from '../../cli/journeyProgram';
import { testDirectory, testTemporalConfig, testWorkflowBundle, testCaseFileOption } from '../setup/testEnvironment';
import { caseApiClient, type ApiAnswer } from '../support/caseApiClient';
import { waitUntil } from '../support/waitUntil';
import { simulatorControl } from '../support/faultHarness/rawProviderApi';

let stack: Stack;
let api: ReturnType<typeof caseApiClient>;

beforeAll(async () => {
  stack = await startStack({
    temporal: testTemporalConfig(),
    caseFile: testCaseFileOption(),
    workflowBundle: testWorkflowBundle(),
    simulatorSeed: 1227,
    spoolDir: testDirectory('spool'),
    processingDelayMs: 20,
  });
  api = caseApiClient(stack.caseApi.url);
});

afterAll(async () => {
  await stack?.stop();
});

const control = (path: string, body?: unknown) => simulatorControl(stack.simulator)(path, body);
const requestIdOf = (answer: ApiAnswer) => answer.headers.get('Request-Id');
const generated = /^req_[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** `journey <args>` through the CLI's own code, on the stack's client and case file; its stderr lines. */
async function journey(stderr: string[], ...args: string[]): Promise<unknown> {
  let run: Run | undefined;
  journeyProgram((chosen) => (run = chosen)).parse(['--json', ...args], { from: 'user' });
  const ctx = { client: stack.client, taskQueue: stack.temporal.taskQueue, caseFile: async () => stack.caseFile };
  return (run as Run)(ctx, { json: true, print: () => undefined, progress: (line) => stderr.push(line) });
}

test("an action without an Idempotency-Key is audited under the request id the API answered; with one, under the key's Update id; the CLI prints its own", async () => {
  const { operator, origination } = stack.caseApiKeys!;
  const caseId = (await control('/cases', {})).case_id as string;
  const ambiguous = ((await control('/companies')) as { company_id: string; company_name: string }[]).find(
    (c) => c.company_name === 'Ambiguous Foods Ltd',
  )!;
  const started = await api('POST', '/v1/cases', {
    key: origination,
    body: {
      caseId,
      company: { company_id: ambiguous.company_id },
      steps: { creditReport: true },
      deadlines: { picklist: '5 minutes' },
    },
  });
  expect(started.status).toBe(201);
  expect(requestIdOf(started)).toMatch(generated);
  await waitUntil(
    'the picklist waits for an operator',
    async () => (await stack.caseFile.caseRecord(caseId))?.state === 'needs_attention',
  );

  const assigned = await api('POST', `/v1/cases/${caseId}/assign`, { key: operator, body: { assignee: 'grace' } });
  expect(assigned.status).toBe(200);
  const refused = await api('POST', `/v1/cases/${caseId}/steps/banking/waive`, {
    key: operator,
    body: { reason: 'no bank' },
  });
  expect(refused.status).toBe(409);
  const key = `waive-${caseId}`;
  const keyed = await api('POST', `/v1/cases/${caseId}/steps/banking/waive`, {
    key: operator,
    body: { reason: 'no bank' },
    headers: { 'Idempotency-Key': key },
  });
  expect(keyed.status).toBe(409);
  const stderr: string[] = [];
  await expect(journey(stderr, 'waive', caseId, 'banking', 'no', 'bank', '--actor', 'ada')).rejects.toThrow(
    'Workflow Update failed',
  );
  const cancelled = await api('POST', `/v1/cases/${caseId}/cancel`, { key: operator, body: {} });
  expect(cancelled.status).toBe(202);

  const answered = [
    requestIdOf(assigned),
    requestIdOf(refused),
    requestIdOf(keyed),
    stderr.join('\n').match(/^request id (\S+)$/m)?.[1],
    requestIdOf(cancelled),
  ];
  for (const id of [answered[0], answered[1], answered[3], answered[4]]) expect(id).toMatch(generated);
  expect(answered[2]).toBe(`waive-step/${key}`);
  expect(new Set(answered).size).toBe(answered.length);

  const timeline = await api('GET', `/v1/cases/${caseId}/timeline`, { key: origination });
  const actions = timeline.body.entries.filter((e: { kind: string }) => e.kind === 'operator_action');
  expect(
    actions.map((e: { action: string; outcome: string; requestId: string }) => [e.action, e.outcome, e.requestId]),
  ).toEqual([
    ['assign', 'accepted', answered[0]],
    ['waiveStep', 'refused', answered[1]],
    ['waiveStep', 'refused', answered[2]],
    ['waiveStep', 'refused', answered[3]],
    ['cancel', 'accepted', answered[4]],
  ]);
});

test('every answer names its request, a refusal before the routes too, and the document says so', async () => {
  expect(requestIdOf(await api('GET', '/v1/cases/no-such-case'))).toMatch(generated);
  const read = await api('GET', '/v1/cases?pageSize=1', { key: stack.caseApiKeys!.origination });
  expect(read.status).toBe(200);
  expect(requestIdOf(read)).toMatch(generated);
  const document = (await api('GET', '/openapi.json')).body;
  for (const [path, status] of [
    ['/v1/cases/{caseId}/cancel', '202'],
    ['/v1/cases/{caseId}/assign', '200'],
    ['/v1/cases/{caseId}/steps/{step}/waive', '409'],
  ] as const) {
    expect(document.paths[path].post.responses[status].headers['Request-Id']).toMatchObject({
      required: true,
      description: expect.stringContaining('requestId'),
    });
  }
});
