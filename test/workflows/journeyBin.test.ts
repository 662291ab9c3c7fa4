/**
 * `journey` spawned as a user runs it (the package bin, as `npx journey` finds it): help for every
 * command, usage errors before any connection, the dead address named, --json that parses, and
 * `watch` following a journey to its end.
 */
import { execFile } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
import { startStack, type Stack } from '../../cli/stack';
import { waitForStatus } from '../../cli/watchStatus';
import { journeyStatusQuery } from '../../client/journeyMessages';
import { testDirectory, testTemporalConfig, testWorkflowBundle, testCaseFileOption } from '../setup/testEnvironment';
import { simulatorControl } from '../../bench/faultHarness/rawProviderApi';
import { startOnboardCase } from '../support/startOnboardCase';

const execFileAsync = promisify(execFile);
const root = path.resolve(__dirname, '../..');
const bin = path.join(root, 'cli/journeyBin.cjs');
const commands = ['start', 'status', 'list', 'watch', 'retry-step', 'waive', 'resolve-picklist', 'cancel', 'retry', 'replay'];

interface Ran {
  code: number;
  stdout: string;
  stderr: string;
}

async function journey(args: string[], env: Record<string, string> = {}): Promise<Ran> {
  try {
    const { stdout, stderr } = await execFileAsync(process.execPath, [bin, ...args], { cwd: root, env: { ...process.env, ...env } });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

test('the package bin is `journey`', () => {
  expect(require(path.join(root, 'package.json')).bin).toEqual({ journey: 'cli/journeyBin.cjs' });
});

test('--help works on every command and lists its arguments and the exit codes', async () => {
  const top = await journey(['--help']);
  expect(top.code).toBe(0);
  for (const name of commands) expect(top.stdout).toContain(name);
  const helps = await Promise.all(commands.map((name) => journey([name, '--help'])));
  helps.forEach((h, i) => {
    expect({ name: commands[i], code: h.code }).toEqual({ name: commands[i], code: 0 });
    expect(h.stdout).toContain(`Usage: journey ${commands[i]}`);
    expect(h.stdout).toContain('2  usage error');
  });
});

test('a bad argument fails with exit 2 at once, without connecting to Temporal', async () => {
  // A listener that counts connections: a command that connected first would show here.
  let connections = 0;
  const server = net.createServer((socket) => {
    connections++;
    socket.destroy();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const address = `127.0.0.1:${(server.address() as net.AddressInfo).port}`;
  try {
    const cases: [string[], RegExp][] = [
      [['list', '--state', 'bogus'], /argument 'bogus' is invalid/],
      [['waive', 'case-1', 'banking'], /missing required argument 'reason'/],
      [['frobnicate'], /unknown command 'frobnicate'/],
      [['start', '/nonexistent/input.json'], /Cannot read \/nonexistent\/input.json/],
      [['status'], /missing required argument 'caseId'/],
    ];
    for (const [args, message] of cases) {
      const ran = await journey(args, { TEMPORAL_ADDRESS: address });
      expect({ args, code: ran.code }).toEqual({ args, code: 2 });
      expect(ran.stderr).toMatch(message);
      expect(ran.stderr).not.toMatch(/^\s+at /m);
    }
    // Checked before anything connects: the listener at TEMPORAL_ADDRESS saw no connection (no
    // wall-clock bound: a busy machine is slow, not wrong).
    expect(connections).toBe(0);
  } finally {
    server.close();
  }
});

test('a dead Temporal address is named, exit 1, no stack trace', async () => {
  const ran = await journey(['status', 'some-case'], { TEMPORAL_ADDRESS: '127.0.0.1:1' });
  expect(ran.code).toBe(1);
  expect(ran.stderr).toContain('cannot reach Temporal at 127.0.0.1:1');
  expect(ran.stderr).not.toMatch(/^\s+at /m);
}, 30_000);

describe('against a running stack', () => {
  let stack: Stack;
  let env: Record<string, string>;
  beforeAll(async () => {
    stack = await startStack({ temporal: testTemporalConfig(), caseFile: testCaseFileOption(), workflowBundle: testWorkflowBundle(), simulatorSeed: 1204, spoolDir: testDirectory('spool'), processingDelayMs: 20 });
    env = { TEMPORAL_ADDRESS: stack.temporal.address, TEMPORAL_NAMESPACE: stack.temporal.namespace, TEMPORAL_TASK_QUEUE: stack.temporal.taskQueue };
  });
  afterAll(async () => {
    await stack?.stop();
  });
  const control = (p: string, body?: unknown) => simulatorControl(stack.simulator)(p, body);

  test('--json parses for status, list and a refusal; watch follows the journey until it completes', async () => {
    const caseId = (await control('/cases', {})).case_id as string;
    const personId = (await control('/persons', {})).person_id as string;
    const idv = `identity-verification/${personId}`;
    const handle = await startOnboardCase(stack.client, { workflowId: `case/${caseId}`, taskQueue: stack.temporal.taskQueue, args: [{ caseId, people: [{ personId }], steps: { identityVerification: true } }] });
    const waiting = await waitForStatus(handle, journeyStatusQuery, (s) => s.steps[idv]?.state === 'waiting');

    const status = await journey(['status', caseId, '--json'], env);
    expect(status.code).toBe(0);
    expect(JSON.parse(status.stdout)).toMatchObject({ caseId, state: 'running', runStatus: 'RUNNING', steps: { [idv]: { state: 'waiting' } } });
    const text = await journey(['status', caseId], env);
    expect(text.stdout).toMatch(/STEP\s+STATE\s+ATTEMPT\s+PROVIDER IDS/);

    const refused = await journey(['--json', 'retry-step', caseId, idv], env);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('a step can be retried only when it is');

    const watcher = journey(['watch', caseId, '--json'], env);
    await control(`/identity-verifications/${waiting.steps[idv]!.providerIds.request_id}/complete`, { verification_status: 'Approved' });
    const watched = await watcher;
    expect(watched.code).toBe(0);
    const lines = watched.stdout.trim().split('\n').map((l) => JSON.parse(l));
    expect(lines.at(-1)).toEqual({ caseId, ended: 'completed' });
    expect(lines.some((l) => l.steps?.[idv]?.state === 'completed')).toBe(true);

    // The listing shows the latest run per case, with a header row in text.
    const listed = await waitForListing(caseId);
    expect(listed.filter((r: { caseId: string }) => r.caseId === caseId)).toEqual([{ caseId, state: 'completed', runStatus: 'COMPLETED', workflowId: `case/${caseId}`, runId: expect.any(String), startedAt: expect.any(String) }]);
    expect((await journey(['list'], env)).stdout).toMatch(/^CASE\s+STATE\s+RUN/);
  }, 60_000);

  async function waitForListing(caseId: string) {
    // Visibility is eventually consistent: list until the journey shows as completed.
    const deadline = Date.now() + 20_000;
    for (;;) {
      const listed = JSON.parse((await journey(['list', '--json'], env)).stdout);
      if (listed.some((r: { caseId: string; state: string }) => r.caseId === caseId && r.state === 'completed')) return listed;
      if (Date.now() > deadline) throw new Error(`case ${caseId} never listed as completed`);
    }
  }
});
