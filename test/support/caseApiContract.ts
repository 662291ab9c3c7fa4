/**
 * The case API against its own OpenAPI document, property-based: Schemathesis generates
 * requests from the running API's /openapi.json, valid and invalid, for every operation, with each
 * role's key, against a running stack, and checks every answer (`--checks all`): no 5xx, a
 * documented status with a body that matches its documented schema, valid requests accepted and
 * invalid ones refused with a 4xx, methods a path lacks answered 405 with Allow, each answer within
 * 2 s. A case waits for a picklist choice before it runs, so an action on a known case meets a
 * running journey. The suites (test/api in `npm test`, test/faults larger) differ in size only.
 * CONTRACT_SEED repeats a run: the seed is in any failure's message with Schemathesis's report
 * (each failure, its request as curl, the answer). Both suites generate from fixed seeds, so that
 * CI's verdict on a change depends on the change, not on the draw; to look further, run the fault
 * suite with other seeds (CONTRACT_SEED=$RANDOM), and turn what it finds into tests.
 * CONTRACT_REPORT_DIR=<dir> keeps every exchange with its time as HAR files.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import path from 'node:path';
import { startStack, type Stack } from '../../cli/stack';
import { simulatorControl } from './faultHarness/rawProviderApi';
import { testDirectory, testTemporalConfig, testWorkflowBundle } from '../setup/testEnvironment';
import { caseFileOptionOf, startCaseFileProcess, type CaseFileProcess } from './caseFileProcess';
import { caseApiClient, eventually } from './caseApiClient';
import { resolveSchemathesis } from './schemathesis';
import { failuresIn } from './schemathesisReport';

export interface ContractSuiteOptions {
  simulatorSeed: number;
  /** Test cases per operation in the fuzzing phase (the coverage phase adds its own boundary cases). */
  examplesPerOperation: number;
  /** What one role's run may take, Schemathesis's own start included. */
  budgetMs: number;
  /** The generator's seed; drawn anew each run when unset. CONTRACT_SEED overrides either. */
  seed?: number;
}

/** The refusals no generator can know are right (opaque page tokens, visibility queries): see the file. */
const hooksDir = path.join(__dirname, 'schemathesisHooks');

export function caseApiContractSuite(options: ContractSuiteOptions): void {
  const seed = Number(process.env.CONTRACT_SEED ?? options.seed ?? Math.floor(Math.random() * 2 ** 31));
  let stack: Stack;
  let python: string;

  let caseFile: CaseFileProcess | undefined;

  beforeAll(async () => {
    // A case file of its own: Schemathesis follows the links of GET /v1/cases to every case listed,
    // and in the run's shared case file those are other suites' journeys, whose workers have gone
    // (an Update to one waits for a worker that never comes).
    caseFile = await startCaseFileProcess();
    [stack, python] = await Promise.all([
      startStack({
        temporal: testTemporalConfig(),
        caseFile: caseFileOptionOf(caseFile),
        workflowBundle: testWorkflowBundle(),
        simulatorSeed: options.simulatorSeed,
        spoolDir: testDirectory('spool'),
        processingDelayMs: 20,
      }),
      resolveSchemathesis(),
    ]);
    await startPicklistCase(stack);
  }, 180_000);

  afterAll(async () => {
    await stack?.stop();
    await caseFile?.stop();
  });

  // One test, the roles in a fixed order: the origination role's run starts journeys, which the
  // operator role's run then meets in GET /v1/cases; in two tests, jest --randomize would change
  // what a fixed seed generates.
  const roles = ['operator', 'origination'] as const;
  test(
    `every operation keeps the document's promises to a caller with each role (${roles.join(', ')})`,
    async () => {
      for (const role of roles) {
        const began = Date.now();
        const result = await schemathesis(python, stack.caseApi.url, role, stack.caseApiKeys![role], seed, options);
        // What failed comes first, a line each: CI shows the head of a failure's message.
        const failed = result.code === 0 ? [] : failuresIn(result.output);
        expect({ role, seed, code: result.code, failed, output: result.code === 0 ? 'passed' : result.output }).toEqual(
          { role, seed, code: 0, failed: [], output: 'passed' },
        );
        expect(Number(/(\d+) generated/.exec(result.output)?.[1] ?? 0)).toBeGreaterThan(0);
        expect(Date.now() - began).toBeLessThan(options.budgetMs);
      }
    },
    roles.length * options.budgetMs + 60_000,
  );
}

/** A case whose credit report waits for a picklist choice: actions on it meet a running journey. */
async function startPicklistCase(stack: Stack): Promise<void> {
  const control = (p: string, body?: unknown) => simulatorControl(stack.simulator)(p, body);
  const api = caseApiClient(stack.caseApi.url);
  const key = stack.caseApiKeys!.origination;
  const caseId = (await control('/cases', {})).case_id as string;
  const ambiguous = ((await control('/companies')) as { company_name: string; company_id: string }[]).find(
    (c) => c.company_name === 'Ambiguous Foods Ltd',
  )!;
  const input = { caseId, company: { company_id: ambiguous.company_id }, steps: { creditReport: true } };
  expect((await api('POST', '/v1/cases', { key, body: input })).status).toBe(201);
  await eventually(
    () => api('GET', `/v1/cases/${caseId}`, { key }),
    (r) => r.body?.steps?.['credit-report']?.state === 'waiting',
  );
}

/** One Schemathesis run with a role's key: its exit code and its whole report. */
function schemathesis(
  python: string,
  apiUrl: string,
  role: string,
  key: string,
  seed: number,
  options: ContractSuiteOptions,
): Promise<{ code: number; output: string }> {
  const args = [
    '-m',
    'schemathesis.cli',
    'run',
    `${apiUrl}/openapi.json`,
    '--header',
    `Authorization: Bearer ${key}`,
    '--checks',
    'all',
    '--max-response-time',
    '2',
    '--max-examples',
    String(options.examplesPerOperation),
    '--seed',
    String(seed),
    // One worker: the machine's other core serves the stack (and Hypothesis's threads once met a CPython AST bug).
    '--workers',
    '1',
    '--no-shrink',
    '--output-sanitize',
    'true',
    // CONTRACT_REPORT_DIR=<dir> keeps every request and answer with its time (HAR, a folder per role).
    ...(process.env.CONTRACT_REPORT_DIR
      ? ['--report', 'har', '--report-dir', path.join(process.env.CONTRACT_REPORT_DIR, role)]
      : []),
  ];
  // A throwaway working folder: Hypothesis keeps its example database there.
  const cwd = mkdtempSync(path.join(process.env.TEST_TEMP_DIR!, 'schemathesis-'));
  const env = {
    ...process.env,
    NO_COLOR: '1',
    PYTHONWARNINGS: 'ignore',
    PYTHONPATH: hooksDir,
    SCHEMATHESIS_HOOKS: 'case_api_contract_hooks',
  };
  return new Promise((resolve) => {
    execFile(
      python,
      args,
      { cwd, env, maxBuffer: 64 * 1024 * 1024, timeout: options.budgetMs + 30_000 },
      (error, stdout, stderr) => {
        resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, output: `${stdout}${stderr}` });
      },
    );
  });
}
