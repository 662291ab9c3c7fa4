/** `npm run applicant` plays the applicant: its commands settle a real journey's IDV and bank connection. */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { startStack, type Stack } from '../../cli/stack';
import { waitForStatus } from '../../cli/watchStatus';
import { journeyStatusQuery } from '../../client/journeyMessages';
import { testDirectory, testTemporalConfig, testWorkflowBundle, testCaseFileOption } from '../setup/testEnvironment';
import { simulatorControl } from '../support/faultHarness/rawProviderApi';
import { startOnboardCase } from '../support/startOnboardCase';

const execFileAsync = promisify(execFile);
const root = path.resolve(__dirname, '../..');
let stack: Stack;

beforeAll(async () => {
  stack = await startStack({
    temporal: testTemporalConfig(),
    caseFile: testCaseFileOption(),
    workflowBundle: testWorkflowBundle(),
    simulatorSeed: 1205,
    spoolDir: testDirectory('spool'),
    processingDelayMs: 20,
  });
});

afterAll(async () => {
  await stack?.stop();
});

async function applicant(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await execFileAsync(
      process.execPath,
      [path.join(root, 'node_modules/tsx/dist/cli.mjs'), 'cli/applicant.ts', ...args],
      { cwd: root, env: { ...process.env, SIMULATOR_CONTROL_URL: stack.simulator.controlUrl } },
    );
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

test('the applicant completes an IDV with a verification status and connects a bank; a second answer is refused', async () => {
  const control = simulatorControl(stack.simulator);
  const caseId = (await control('/cases', {})).case_id as string;
  const personId = (await control('/persons', {})).person_id as string;
  const idv = `identity-verification/${personId}`;
  const handle = await startOnboardCase(stack.client, {
    workflowId: `case/${caseId}`,
    taskQueue: stack.temporal.taskQueue,
    args: [{ caseId, people: [{ personId }], steps: { identityVerification: true, banking: 'open_banking' } }],
  });
  const waiting = await waitForStatus(
    handle,
    journeyStatusQuery,
    (s) => s.steps[idv]?.state === 'waiting' && s.steps.banking?.state === 'waiting',
  );
  const requestId = waiting.steps[idv]!.providerIds.request_id!;
  const connectionId = waiting.steps.banking!.providerIds.bank_connection_id!;

  expect(await applicant('complete-idv', requestId, '--status', 'Approved')).toMatchObject({
    code: 0,
    stdout: expect.stringContaining(`IDV ${requestId}: completed, Approved`),
  });
  expect(await applicant('connect-bank', connectionId, '--accounts', '2')).toMatchObject({
    code: 0,
    stdout: expect.stringContaining('connected, 2 account(s)'),
  });
  const again = await applicant('expire-idv', requestId);
  expect(again.code).toBe(1);
  expect(again.stderr).toContain('the simulator refused (409)');
  expect((await applicant('reject-bank')).code).toBe(2);

  const done = await handle.result();
  expect(done.state).toBe('completed');
  expect(done.steps[idv]).toMatchObject({ state: 'completed', detail: { verificationStatus: 'Approved' } });
});
