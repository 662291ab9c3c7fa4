/**
 * The case API against its own OpenAPI document, property-based (issue 23): Schemathesis generates
 * requests from the running API's /openapi.json, valid and invalid, for every operation, with each
 * role's key, against a running stack, and checks every answer: no 5xx, a documented status with a
 * body that matches its documented schema, valid requests accepted and invalid ones refused with a
 * 4xx, methods a path lacks answered 405 with Allow, each answer within 2 s. Some cases exist
 * before it runs (one waiting for a picklist choice), so an action on a known case meets a journey.
 *
 * Its size: a few examples per operation in `npm test`, many more in `npm run test:faults`
 * (JOURNEYS_SUITE=faults); CONTRACT_SEED repeats a run (the seed is in any failure's message).
 */
import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import path from 'node:path';
import { startStack, type Stack } from '../../cli/stack';
import { simulatorControl } from '../../bench/faultHarness/rawProviderApi';
import { testCaseFileOption, testDirectory, testTemporalConfig, testWorkflowBundle } from '../setup/testEnvironment';
import { caseApiClient, eventually } from '../support/caseApiClient';
import { resolveSchemathesis } from '../support/schemathesis';

const faults = process.env.JOURNEYS_SUITE === 'faults';
/** Test cases per operation in the fuzzing phase (the coverage phase adds its own boundary cases). */
const examplesPerOperation = faults ? 150 : 12;
/** The refusals no generator can know are right (opaque page tokens, visibility queries): see the file. */
const hooksDir = path.join(__dirname, '..', 'support', 'schemathesisHooks');
const seed = Number(process.env.CONTRACT_SEED ?? Math.floor(Math.random() * 2 ** 31));

let stack: Stack;
let python: string;

beforeAll(async () => {
  [stack, python] = await Promise.all([
    startStack({ temporal: testTemporalConfig(), caseFile: testCaseFileOption(), workflowBundle: testWorkflowBundle(), simulatorSeed: 2301, spoolDir: testDirectory('spool'), processingDelayMs: 20 }),
    resolveSchemathesis(),
  ]);
  await startPicklistCase();
}, 180_000);

afterAll(async () => {
  await stack?.stop();
});

/** A case whose credit report waits for a picklist choice: actions on it meet a running journey. */
async function startPicklistCase(): Promise<void> {
  const control = (p: string, body?: unknown) => simulatorControl(stack.simulator)(p, body);
  const api = caseApiClient(stack.caseApi.url);
  const caseId = (await control('/cases', {})).case_id as string;
  const ambiguous = ((await control('/companies')) as { company_name: string; company_id: string }[]).find((c) => c.company_name === 'Ambiguous Foods Ltd')!;
  const input = { caseId, company: { company_id: ambiguous.company_id }, steps: { creditReport: true } };
  expect((await api('POST', '/v1/cases', { key: stack.caseApiKeys!.origination, body: input })).status).toBe(201);
  await eventually(() => api('GET', `/v1/cases/${caseId}`, { key: stack.caseApiKeys!.origination }), (r) => r.body?.steps?.['credit-report']?.state === 'waiting');
}

interface RunResult {
  code: number;
  output: string;
}

/** One Schemathesis run with a role's key; its whole report is the failure message when it fails. */
function schemathesis(key: string): Promise<RunResult> {
  const args = [
    '-m', 'schemathesis.cli', 'run', `${stack.caseApi.url}/openapi.json`,
    '--header', `Authorization: Bearer ${key}`,
    '--checks', 'all',
    '--max-response-time', '2',
    '--max-examples', String(examplesPerOperation),
    '--seed', String(seed),
    // One worker: the machine's other core serves the stack (and Hypothesis's threads once met a CPython AST bug).
    '--workers', '1',
    '--no-shrink',
    '--output-sanitize', 'true',
  ];
  // Its working folder is a throwaway one: Hypothesis keeps its example database there.
  const cwd = mkdtempSync(path.join(process.env.TEST_TEMP_DIR!, 'schemathesis-'));
  return new Promise((resolve) => {
    const env = { ...process.env, NO_COLOR: '1', PYTHONWARNINGS: 'ignore', PYTHONPATH: hooksDir, SCHEMATHESIS_HOOKS: 'case_api_contract_hooks' };
    execFile(python, args, { cwd, env, maxBuffer: 64 * 1024 * 1024, timeout: 240_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, output: `${stdout}${stderr}` });
    });
  });
}

for (const role of ['operator', 'origination'] as const) {
  test(`every operation keeps the document's promises to a caller with the ${role} role`, async () => {
    const began = Date.now();
    const result = await schemathesis(stack.caseApiKeys![role]);
    const ran = /(\d+) generated/.exec(result.output)?.[1];
    // The report names each failure, its request as curl and the response; the seed repeats the run.
    expect({ role, seed, code: result.code, output: result.code === 0 ? 'passed' : result.output }).toEqual({ role, seed, code: 0, output: 'passed' });
    expect(Number(ran ?? 0)).toBeGreaterThan(0);
    expect(Date.now() - began).toBeLessThan(faults ? 600_000 : 60_000);
  }, faults ? 900_000 : 240_000);
}
