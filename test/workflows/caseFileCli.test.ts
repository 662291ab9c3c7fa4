/**
 * The case file from the operator's command line, as a separate process on the run's embedded
 * case file (a second connection beside the stack's): upload a document, run a journey that names
 * it, read the evidence, export the document, refuse to purge a running journey, purge a closed one.
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { readJourneyInput } from '../../cli/journeyInputFile';
import { startStack, type Stack } from '../../cli/stack';
import { waitForStatus } from '../../cli/watchStatus';
import { journeyStatusQuery } from '../../client/journeyMessages';
import { simulatorControl } from '../support/faultHarness/rawProviderApi';
import { testCaseFileOption, testDirectory, testTemporalConfig, testWorkflowBundle } from '../setup/testEnvironment';
import { startOnboardCase } from '../support/startOnboardCase';

const exec = promisify(execFile);
const cwd = path.resolve(__dirname, '../..');
const dir = testDirectory('case-file-cli');
let stack: Stack;

beforeAll(async () => {
  stack = await startStack({
    temporal: testTemporalConfig(),
    caseFile: testCaseFileOption(),
    workflowBundle: testWorkflowBundle(),
    simulatorSeed: 505,
    spoolDir: testDirectory('spool'),
    processingDelayMs: 20,
  });
  mkdirSync(dir, { recursive: true });
});

afterAll(async () => {
  await stack?.stop();
});

/** Runs `journey <args>` against the stack; resolves with its output and exit code either way. */
async function journey(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return journeyWith({ TEMPORAL_ADDRESS: stack.temporal.address }, ...args);
}

async function journeyWith(
  vars: Record<string, string>,
  ...args: string[]
): Promise<{ code: number; stdout: string; stderr: string }> {
  const env = {
    ...process.env,
    TEMPORAL_TASK_QUEUE: stack.temporal.taskQueue,
    DATABASE_URL: stack.caseFileUrl,
    ...vars,
  };
  return exec('npx', ['tsx', 'cli/journey.ts', ...args], { cwd, env }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, stdout: e.stdout, stderr: e.stderr }),
  );
}

test('upload, a journey by reference, evidence by step, export, purge refused while running and done once closed', async () => {
  const control = simulatorControl(stack.simulator);
  const caseId = (await control('/cases', {})).case_id as string;
  const personId = (await control('/persons', {})).person_id as string;
  const file = path.join(dir, 'payslip.pdf');
  const bytes = Buffer.concat([Buffer.from('PAYSLIP\n'), randomBytes(64 * 1024)]);
  writeFileSync(file, bytes);

  // Uploading needs only the case file: no Temporal listens at 127.0.0.1:1.
  const uploaded = await journeyWith(
    { TEMPORAL_ADDRESS: '127.0.0.1:1' },
    'upload',
    caseId,
    file,
    '--type',
    'Payslip',
    '--json',
  );
  expect(uploaded.code).toBe(0);
  const reference = JSON.parse(uploaded.stdout) as { document_id: string; file_name: string };
  expect(reference).toMatchObject({ file_name: 'payslip.pdf', document_type: 'Payslip' });

  const handle = await startOnboardCase(stack.client, {
    workflowId: `case/${caseId}`,
    taskQueue: stack.temporal.taskQueue,
    args: [
      {
        caseId,
        people: [{ personId }],
        steps: { identityVerification: true, documents: [reference] },
        deadlines: { identityVerification: '30 seconds', documents: '30 seconds' },
      },
    ],
  });
  const waiting = await waitForStatus(
    handle,
    journeyStatusQuery,
    (s) => s.steps[`identity-verification/${personId}`]?.state === 'waiting',
  );
  const refused = await journey('purge', caseId);
  expect(refused.code).toBe(1);
  expect(refused.stderr).toContain(`case/${caseId} is still running`);
  expect(refused.stderr).not.toMatch(/\n\s+at /);

  await control(
    `/identity-verifications/${waiting.steps[`identity-verification/${personId}`]!.providerIds.request_id}/complete`,
    { verification_status: 'Approved' },
  );
  expect((await handle.result()).state).toBe('completed');

  const evidence = await journey('evidence', caseId);
  expect(evidence.code).toBe(0);
  expect(evidence.stdout).toMatch(
    new RegExp(
      `case/${caseId}/documents\\n\\s+provider document .* \\(payslip\\.pdf\\) from document ${reference.document_id}: Processing when uploaded`,
    ),
  );
  expect(evidence.stdout).toMatch(
    new RegExp(`case/${caseId}/identity-verification/${personId}\\n\\s+identity verification .*: Completed, Approved`),
  );
  const all = JSON.parse((await journey('evidence', caseId, '--json')).stdout);
  expect(all.documents).toEqual([
    expect.objectContaining({ document_id: reference.document_id, size_bytes: bytes.length }),
  ]);

  const exported = path.join(dir, 'exported.pdf');
  expect((await journey('evidence', caseId, '--export-document', reference.document_id, exported)).code).toBe(0);
  expect(readFileSync(exported).equals(bytes)).toBe(true);

  const purged = await journey('purge', caseId);
  expect(purged.code).toBe(0);
  expect(purged.stdout).toMatch(/purged case .*: \d+ rows \(.*documents 1/);
  expect(Object.values(await stack.caseFile.counts(caseId)).every((n) => n === 0)).toBe(true);
  expect((await journey('evidence', caseId)).stdout).toContain('is empty');
}, 120_000);

test('upload checks its file before connecting; an unreachable case file is named; a journey input with bytes instead of a document id is refused', async () => {
  const unreachable = await journeyWith(
    { DATABASE_URL: 'postgresql://postgres@127.0.0.1:1/postgres' },
    'evidence',
    'case-1',
  );
  expect(unreachable.code).toBe(1);
  expect(unreachable.stderr).toContain('cannot open the case file');
  expect(unreachable.stderr).toContain('check DATABASE_URL');
  expect(unreachable.stderr).not.toMatch(/\n\s+at /);
  const missing = await exec('npx', ['tsx', 'cli/journey.ts', 'upload', 'case-1', path.join(dir, 'nope.pdf')], {
    cwd,
    env: { ...process.env, TEMPORAL_ADDRESS: '127.0.0.1:1' },
  }).catch((e) => e);
  expect(missing.code).toBe(2);
  expect(missing.stderr).toContain('cannot read');
  const input = path.join(dir, 'inline.json');
  writeFileSync(
    input,
    JSON.stringify({
      caseId: 'c',
      steps: { documents: [{ file_name: 'p.pdf', content_base64: Buffer.from('PAYSLIP').toString('base64') }] },
    }),
  );
  expect(() => readJourneyInput(input)).toThrow(
    /steps\.documents\.0\.document_id: document_id must be the id `journey upload` printed/,
  );
});
