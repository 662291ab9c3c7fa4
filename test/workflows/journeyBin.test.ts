/**
 * `journey` spawned as a user runs it (the package bin, as `npx journey` finds it): help for every
 * command, usage errors before any connection, the dead address named, --json that parses, and
 * `watch` following a journey to its end.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import net from 'node:net';
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
const bin = path.join(root, 'cli/journeyBin.cjs');
const commands = [
  'start',
  'status',
  'list',
  'watch',
  'retry-step',
  'waive',
  'resolve-picklist',
  'cancel',
  'retry',
  'replay',
];

interface Ran {
  code: number;
  stdout: string;
  stderr: string;
}

async function journey(args: string[], env: Record<string, string> = {}): Promise<Ran> {
  try {
    const { stdout, stderr } = await execFileAsync(process.execPath, [bin, ...args], {
      cwd: root,
      env: { ...process.env, ...env },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

test('the package bin is `journey`', () => {
  expect((JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { bin: unknown }).bin).toEqual({
    journey: 'cli/journeyBin.cjs',
  });
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
  // The operator actions take a request id; retry-step documents fresh and its bulk form.
  for (const name of ['retry-step', 'waive', 'resolve-picklist'])
    expect(helps[commands.indexOf(name)]!.stdout).toContain('--request-id <id>');
  // waive is waive-step too, as the case API names it.
  expect((await journey(['waive-step', '--help'])).stdout).toContain('Usage: journey waive|waive-step');
  for (const flag of [
    '--fresh',
    '--where <query>',
    '--step <step>',
    '--reason <text>',
    '--yes',
    '--concurrency <n>',
    'Bulk retry',
  ])
    expect(helps[commands.indexOf('retry-step')]!.stdout).toContain(flag);
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
      [['retry-step', 'case-1'], /retry-step needs <caseId> <step>/],
      [
        ['retry-step', 'case-1', 'banking', '--request-id', 'é'],
        /--request-id must be 1 to 200 printable ASCII characters/,
      ],
      [
        ['waive', 'case-1', 'banking', 'why', '--request-id', 'x'.repeat(201)],
        /--request-id must be 1 to 200 printable ASCII characters/,
      ],
      [['retry-step', 'case-1', 'banking', '--yes'], /--yes belongs to a bulk retry/],
      [['retry-step', '--where', "CaseId = 'x'", '--step', 'banking'], /--reason: is required/],
      [
        ['retry-step', '--where', "CaseId = 'x'", '--step', 'banking', '--reason', 'outage', '--concurrency', '17'],
        /--concurrency: Too big/,
      ],
      [
        ['retry-step', 'case-1', '--where', "CaseId = 'x'", '--step', 'banking', '--reason', 'outage'],
        /either <caseId> <step> or --where/,
      ],
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
    stack = await startStack({
      temporal: testTemporalConfig(),
      caseFile: testCaseFileOption(),
      workflowBundle: testWorkflowBundle(),
      simulatorSeed: 5102,
      spoolDir: testDirectory('spool'),
      processingDelayMs: 20,
    });
    env = {
      TEMPORAL_ADDRESS: stack.temporal.address,
      TEMPORAL_NAMESPACE: stack.temporal.namespace,
      TEMPORAL_TASK_QUEUE: stack.temporal.taskQueue,
      DATABASE_URL: stack.caseFileUrl,
    };
  });
  afterAll(async () => {
    await stack?.stop();
  });
  const control = (p: string, body?: unknown) => simulatorControl(stack.simulator)(p, body);

  test('--json parses for status, list and a refusal; watch follows the journey until it completes', async () => {
    const caseId = (await control('/cases', {})).case_id as string;
    const personId = (await control('/persons', {})).person_id as string;
    const idv = `identity-verification/${personId}`;
    const handle = await startOnboardCase(stack.client, {
      workflowId: `case/${caseId}`,
      taskQueue: stack.temporal.taskQueue,
      args: [{ caseId, people: [{ personId }], steps: { identityVerification: true } }],
    });
    const waiting = await waitForStatus(handle, journeyStatusQuery, (s) => s.steps[idv]?.state === 'waiting');

    const status = await journey(['status', caseId, '--json'], env);
    expect(status.code).toBe(0);
    expect(JSON.parse(status.stdout)).toMatchObject({
      caseId,
      state: 'running',
      runStatus: 'RUNNING',
      steps: { [idv]: { state: 'waiting' } },
    });
    const text = await journey(['status', caseId], env);
    expect(text.stdout).toMatch(/STEP\s+STATE\s+ATTEMPT\s+PROVIDER IDS/);

    const refused = await journey(['--json', 'retry-step', caseId, 'nope'], env);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('unknown step "nope"');
    // A waiting step can be retried (the applicant lost the link): the new attempt continues the
    // request the person already has instead of sending a second one.
    const retried = await journey(['--json', 'retry-step', caseId, idv, '--reason', 'applicant lost the link'], env);
    expect(retried.code).toBe(0);
    const again = await waitForStatus(
      handle,
      journeyStatusQuery,
      (s) => s.steps[idv]?.attempt === 2 && s.steps[idv]?.state === 'waiting',
    );
    expect(again.steps[idv]!.providerIds.request_id).toBe(waiting.steps[idv]!.providerIds.request_id);

    const watcher = journey(['watch', caseId, '--json'], env);
    await control(`/identity-verifications/${waiting.steps[idv]!.providerIds.request_id}/complete`, {
      verification_status: 'Approved',
    });
    const watched = await watcher;
    expect(watched.code).toBe(0);
    const lines = watched.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.at(-1)).toEqual({ caseId, ended: 'completed' });
    expect(lines.some((l) => l.steps?.[idv]?.state === 'completed')).toBe(true);

    // The listing shows the latest run per case, with a header row in text.
    const listed = await waitForListing(caseId);
    expect(listed.filter((r: { caseId: string }) => r.caseId === caseId)).toEqual([
      expect.objectContaining({
        caseId,
        state: 'completed',
        runStatus: 'COMPLETED',
        workflowId: `case/${caseId}`,
        runId: expect.any(String),
        startedAt: expect.any(String),
      }),
    ]);
    expect((await journey(['list'], env)).stdout).toMatch(/^CASE\s+REFERENCE\s+STATE\s+RUN/);
  }, 60_000);

  test('a case started with `journey start` is listed and found by its names, as one the API started', async () => {
    const caseId = (await control('/cases', { income_employer_outcome: 'Complete' })).case_id as string;
    const company = ((await control('/companies')) as { company_id: string; company_name: string }[]).find(
      (c) => c.company_name === 'Acme Widgets Ltd',
    )!;
    const dir = testDirectory('journey-start');
    mkdirSync(dir, { recursive: true });
    const file = path.join(dir, 'input.json');
    writeFileSync(
      file,
      JSON.stringify({
        caseId,
        company: { company_id: company.company_id, company_name: 'Acme Widgets Ltd', country_code: 'GB' },
        // No credit report: the names can come only from the start.
        steps: { incomeEmployer: true },
      }),
    );
    const started = await journey(['start', file], env);
    expect(started.code).toBe(0);
    await stack.client.workflow.getHandle(`case/${caseId}`).result();
    const listed = await journey(['list', '--name', 'acme widgets', '--json'], env);
    expect(JSON.parse(listed.stdout).filter((r: { caseId: string }) => r.caseId === caseId)).toEqual([
      expect.objectContaining({ caseId, company: 'Acme Widgets Ltd' }),
    ]);
  });

  /**
   * A running journey whose income-employer step failed: the provider answers 503 to every call for
   * it (a refusal: nothing was made, so the call is sent again rather than looked for).
   */
  async function failedIncomeEmployer(): Promise<string> {
    const caseId = (await control('/cases', {})).case_id as string;
    await control('/faults', { method: 'POST', path: `/v2/cases/${caseId}/income-employer`, status: 503, times: 500 });
    const handle = await startOnboardCase(stack.client, {
      taskQueue: stack.temporal.taskQueue,
      args: [{ caseId, steps: { incomeEmployer: true }, deadlines: { providerCalls: '3 seconds' } }],
    });
    await waitForStatus(handle, journeyStatusQuery, (s) => s.steps['income-employer']?.state === 'failed');
    return caseId;
  }

  const incomeEmployerAttempts = async (caseId: string) =>
    (await stack.client.workflow.getHandle(`case/${caseId}`).query(journeyStatusQuery)).steps['income-employer']!
      .attempts.length;

  test('retry-step --where: a dry run lists the cases; --yes retries each once with progress and a summary; a re-run with the printed request id adds no attempt', async () => {
    const failed = await Promise.all([0, 1, 2].map(() => failedIncomeEmployer()));
    // A running journey without the step: listed, and refused by the journey when retried.
    const otherId = (await control('/cases', {})).case_id as string;
    const personId = (await control('/persons', {})).person_id as string;
    await startOnboardCase(stack.client, {
      taskQueue: stack.temporal.taskQueue,
      args: [{ caseId: otherId, people: [{ personId }], steps: { identityVerification: true } }],
    });
    const all = [...failed, otherId];
    const bulk = [
      'retry-step',
      '--where',
      `CaseId IN (${all.map((id) => `'${id}'`).join(', ')})`,
      '--step',
      'income-employer',
      '--reason',
      "provider's outage",
    ];

    // Visibility lags a start by a moment: dry-run until every case is listed.
    let dry: Ran;
    const deadline = Date.now() + 20_000;
    do dry = await journey([...bulk, '--json'], env);
    while (dry.code === 0 && JSON.parse(dry.stdout).cases.length < all.length && Date.now() < deadline);
    expect(dry.code).toBe(0);
    const plan = JSON.parse(dry.stdout);
    expect(plan).toMatchObject({
      dryRun: true,
      step: 'income-employer',
      more: false,
      requestId: expect.any(String),
      query: expect.stringContaining("WorkflowType = 'onboardCase' AND ExecutionStatus = 'Running'"),
    });
    const stepStates = Object.fromEntries(
      plan.cases.map((c: { caseId: string; stepState: string | null }) => [c.caseId, c.stepState]),
    );
    expect(stepStates).toEqual({ ...Object.fromEntries(failed.map((id) => [id, 'failed'])), [otherId]: null });
    const text = await journey(bulk, env);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/^CASE\s+JOURNEY\s+INCOME-EMPLOYER$/m);
    expect(text.stdout).toContain('dry run: nothing was retried');
    // The way on: the same command with a request id and --yes, quoted for the shell.
    expect(text.stdout).toMatch(
      /journey retry-step --where "CaseId IN \('.*'\)" --step income-employer --reason "provider's outage" --request-id bulk-\S+ --yes/,
    );
    for (const id of failed) expect(await incomeEmployerAttempts(id)).toBe(1);

    const run = await journey([...bulk, '--request-id', plan.requestId, '--concurrency', '2', '--yes', '--json'], env);
    // A case was refused: exit 1, with the summary on stdout and progress on stderr.
    expect(run.code).toBe(1);
    const summary = JSON.parse(run.stdout);
    expect(summary).toMatchObject({
      dryRun: false,
      requestId: plan.requestId,
      step: 'income-employer',
      cases: 4,
      failed: [],
    });
    expect(summary.accepted.map((a: { caseId: string; attempt: number }) => [a.caseId, a.attempt]).sort()).toEqual(
      failed.map((id) => [id, 2]).sort(),
    );
    expect(summary.refused).toEqual([
      { caseId: otherId, outcome: 'refused', message: expect.stringContaining('income-employer') },
    ]);
    expect(run.stderr).toContain(`request id ${plan.requestId}`);
    expect(run.stderr).toMatch(/^4\/4 case \S+ (accepted \(attempt 2\)|refused: .+)$/m);
    for (const id of failed) expect(await incomeEmployerAttempts(id)).toBe(2);

    // Resumed with the same request id: the accepted cases answer their first result, no new attempt.
    const again = await journey([...bulk, '--request-id', plan.requestId, '--yes'], env);
    expect(again.code).toBe(1);
    expect(again.stdout).toMatch(/^income-employer on 4 cases: 3 accepted, 1 refused, 0 failed$/m);
    expect(again.stdout).toContain(`--request-id ${plan.requestId}`);
    for (const id of failed) expect(await incomeEmployerAttempts(id)).toBe(2);

    // A bad query is Temporal's message, exit 1.
    const bad = await journey(
      ['retry-step', '--where', 'NoSuchAttribute = 1', '--step', 'income-employer', '--reason', 'x'],
      env,
    );
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/Temporal refused the query: .*NoSuchAttribute/);
    for (const id of all) await stack.client.workflow.getHandle(`case/${id}`).signal('cancel', {});
  }, 120_000);

  test('retry-step --request-id: the same id twice starts one attempt and answers the first result', async () => {
    const caseId = await failedIncomeEmployer();
    const first = await journey(
      ['retry-step', caseId, 'income-employer', 'provider back', '--request-id', 'ticket-42', '--json'],
      env,
    );
    expect(first.code).toBe(0);
    const second = await journey(
      ['retry-step', caseId, 'income-employer', 'provider back', '--request-id', 'ticket-42', '--json'],
      env,
    );
    expect(second.code).toBe(0);
    expect(JSON.parse(second.stdout)).toEqual(JSON.parse(first.stdout));
    expect(JSON.parse(first.stdout)).toMatchObject({ step: 'income-employer', status: { attempt: 2 } });
    expect(await incomeEmployerAttempts(caseId)).toBe(2);
    await stack.client.workflow.getHandle(`case/${caseId}`).signal('cancel', {});
  }, 60_000);

  async function waitForListing(caseId: string) {
    // Visibility is eventually consistent: list until the journey shows as completed.
    const deadline = Date.now() + 20_000;
    for (;;) {
      const listed = JSON.parse((await journey(['list', '--json'], env)).stdout);
      if (listed.some((r: { caseId: string; state: string }) => r.caseId === caseId && r.state === 'completed'))
        return listed;
      if (Date.now() > deadline) throw new Error(`case ${caseId} never listed as completed`);
    }
  }
});
