/**
 * One client (client/journeyOperations.ts): the case API and the `journey` CLI answer the same for
 * the same journey, because both call the same operations: a repeated start finds the journey and
 * starts nothing, status shows the same states, attempts and ids, list shows the same case, and an
 * action on a closed journey is refused with the same words.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { startStack, type Stack } from '../../cli/stack';
import { testDirectory, testTemporalConfig, testWorkflowBundle, testCaseFileOption } from '../setup/testEnvironment';
import { caseApiClient, eventually } from '../support/caseApiClient';
import { simulatorControl, type Json } from '../support/faultHarness/rawProviderApi';

const execFileAsync = promisify(execFile);
const root = path.resolve(__dirname, '../..');
const dir = testDirectory('one-client');
let stack: Stack;
let api: ReturnType<typeof caseApiClient>;

beforeAll(async () => {
  stack = await startStack({
    temporal: testTemporalConfig(),
    caseFile: testCaseFileOption(),
    workflowBundle: testWorkflowBundle(),
    simulatorSeed: 1907,
    spoolDir: testDirectory('one-client-spool'),
    processingDelayMs: 20,
  });
  api = caseApiClient(stack.caseApi.url);
  mkdirSync(dir, { recursive: true });
});

afterAll(async () => {
  await stack?.stop();
});

/** The CLI as an operator runs it, `--json`; answers its exit code and parsed output. */
async function journey(...args: string[]): Promise<{ code: number; json: Json; stderr: string }> {
  const env = {
    ...process.env,
    TEMPORAL_ADDRESS: stack.temporal.address,
    TEMPORAL_NAMESPACE: stack.temporal.namespace,
    TEMPORAL_TASK_QUEUE: stack.temporal.taskQueue,
    DATABASE_URL: stack.caseFileUrl,
  };
  try {
    const { stdout, stderr } = await execFileAsync(
      process.execPath,
      [path.join(root, 'cli/journeyBin.cjs'), '--json', ...args],
      { cwd: root, env },
    );
    return { code: 0, json: JSON.parse(stdout), stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, json: e.stdout ? JSON.parse(e.stdout) : null, stderr: e.stderr };
  }
}

/** What both must agree on, per step: state, attempt, its workflow and the provider's ids. */
const essentials = (status: {
  state: string;
  runStatus: string;
  runId: string;
  steps: Record<string, { state: string; attempt: number; workflowId: string; providerIds: Record<string, string> }>;
}) => ({
  state: status.state,
  runStatus: status.runStatus,
  runId: status.runId,
  steps: Object.fromEntries(
    Object.entries(status.steps).map(([key, s]) => [
      key,
      { state: s.state, attempt: s.attempt, workflowId: s.workflowId, providerIds: s.providerIds },
    ]),
  ),
});

test('the API and the CLI give the same answers for the same journey', async () => {
  const control = simulatorControl(stack.simulator);
  const keys = stack.caseApiKeys!;
  const caseId = (await control('/cases', {})).case_id as string;
  const ambiguous = ((await control('/companies')) as { company_id: string; company_name: string }[]).find(
    (c) => c.company_name === 'Ambiguous Foods Ltd',
  )!;
  const input = { caseId, company: { company_id: ambiguous.company_id }, steps: { creditReport: true } };
  const inputFile = path.join(dir, `${caseId}.json`);
  writeFileSync(inputFile, JSON.stringify(input));

  const started = await journey('start', inputFile);
  expect(started).toMatchObject({ code: 0, json: { caseId, workflowId: `case/${caseId}`, created: true } });
  // A repeat, from either side, finds the journey and starts nothing: the same answer.
  const [repeatedByApi, repeatedByCli] = await Promise.all([
    api('POST', '/v1/cases', { key: keys.origination, body: input }),
    journey('start', inputFile),
  ]);
  expect(repeatedByApi.status).toBe(200);
  expect(repeatedByCli.json).toEqual(repeatedByApi.body);

  const waiting = await eventually(
    () => api('GET', `/v1/cases/${caseId}`, { key: keys.origination }),
    (r) => r.body?.steps?.['credit-report']?.state === 'waiting',
  );
  const byCli = await journey('status', caseId);
  expect(essentials(byCli.json)).toEqual(essentials(waiting.body));
  expect(essentials(byCli.json).state).toBe('needs_attention');

  const listedByApi = await eventually(
    () => api('GET', '/v1/cases?state=needs_attention', { key: keys.origination }),
    (r) => r.body.cases.some((c: { caseId: string }) => c.caseId === caseId),
  );
  const listedByCli = await journey('list', '--state', 'needs_attention');
  const row = (rows: { caseId: string; state: string; runStatus: string; runId: string }[]) =>
    rows
      .filter((r) => r.caseId === caseId)
      .map(({ caseId: id, state, runStatus, runId }) => ({ id, state, runStatus, runId }));
  expect(row(listedByCli.json)).toEqual(row(listedByApi.body.cases));

  // Closed: both refuse an action with the client's words.
  expect(
    (await api('POST', `/v1/cases/${caseId}/cancel`, { key: keys.operator, body: { reason: 'test over' } })).status,
  ).toBe(202);
  await eventually(
    () => api('GET', `/v1/cases/${caseId}`, { key: keys.origination }),
    (r) => r.body.runStatus === 'COMPLETED',
  );
  const refusedByApi = await api('POST', `/v1/cases/${caseId}/steps/credit-report/waive`, {
    key: keys.operator,
    body: { reason: 'late' },
  });
  const refusedByCli = await journey('waive', caseId, 'credit-report', 'late');
  expect(refusedByCli.code).toBe(1);
  expect(refusedByCli.stderr).toContain(refusedByApi.body.message);
  expect(refusedByApi.body.message).toMatch(/operator actions need a running journey/);
}, 120_000);
