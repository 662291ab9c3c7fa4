/**
 * Fault suite: the embedded case file (PGlite served over the wire protocol, what `npm
 * start` serves on 127.0.0.1:5433) SIGKILLed inside a write, 3 times, beside a worker process that
 * reaches it as a second worker reaches `npm start`'s (CASE_FILE_PORT, no DATABASE_URL).
 *
 * The case file runs as a process of its own that holds back the COMMIT of a transaction writing a
 * bank account (the account and its transactions inserted, the COMMIT not run) and says so; the
 * test kills it then. Before anyone writes again it opens the data directory on a port nobody else
 * knows and finds none of that write's rows (nothing half-written), then starts the case file again
 * on the same port. The worker process does not die (one process from start to end), the banking
 * step's activity is retried and completes, every journey completes, and each case holds its bank
 * account once with exactly the provider's transactions.
 */
import { EMBEDDED_POOL_SIZE } from '../../case-file/pool';
import { openCaseFile } from '../../case-file/store';
import { freePort } from '../../cli/freePort';
import { startStack, type Stack } from '../../cli/stack';
import { providerEnvOf } from '../../cli/stackProcessEnv';
import { killChildren, startChild, type Child } from '../support/faultHarness/childProcess';
import { applicantActs, newApplicant, startJourney, type JourneyPlan } from '../support/faultHarness/faultJourneys';
import { simulatorControl } from '../support/faultHarness/rawProviderApi';
import { caseFileOptionOf, startCaseFileProcess, type CaseFileProcess } from '../support/caseFileProcess';
import { testDirectory, testTemporalConfig, testWorkflowBundle } from '../setup/testEnvironment';

const KILLS = 3;
const JOURNEYS = 3;
const HELD_TABLE = 'bank_accounts';
const dataDir = testDirectory('embedded-case-file');
let port: number;
let caseFile: CaseFileProcess | undefined;
let stack: Stack | undefined;
let worker: Child | undefined;

afterAll(async () => {
  killChildren();
  await stack?.stop();
  await caseFile?.stop();
});

/** The case file as the kill left it, read on a port of its own (no worker reaches it), then closed. */
async function afterTheKill<T>(read: (store: Awaited<ReturnType<typeof openCaseFile>>) => Promise<T>): Promise<T> {
  const inspected = await startCaseFileProcess({ dataDir });
  try {
    const store = await openCaseFile(inspected.url, EMBEDDED_POOL_SIZE);
    try {
      return await read(store);
    } finally {
      await store.close();
    }
  } finally {
    await inspected.stop();
  }
}

test(`the embedded case file SIGKILLed inside a write ${KILLS} times: the worker lives on, the write is retried and lands once, nothing half-written`, async () => {
  if (process.env.DATABASE_URL)
    throw new Error(
      'DATABASE_URL is set: this test needs the worker to reach the embedded case file by CASE_FILE_PORT',
    );
  port = await freePort();
  caseFile = await startCaseFileProcess({ dataDir, port, holdCommitAfter: HELD_TABLE });
  stack = await startStack({
    caseFile: caseFileOptionOf(caseFile),
    temporal: testTemporalConfig(),
    workflowBundle: testWorkflowBundle(),
    simulatorSeed: 2121,
    spoolDir: testDirectory('spool'),
    processingDelayMs: 50,
  });
  // The stack's in-process worker would take the work; the worker here is a process of its own.
  await stack.worker.stop();
  const { temporal } = stack;
  worker = await startChild(
    'worker/main.ts',
    {
      TEMPORAL_ADDRESS: temporal.address,
      TEMPORAL_NAMESPACE: temporal.namespace,
      TEMPORAL_TASK_QUEUE: temporal.taskQueue,
      CASE_FILE_PORT: String(port),
      WORKFLOW_BUNDLE: process.env.TEST_WORKFLOW_BUNDLE ?? '',
      ...providerEnvOf(stack),
    },
    'worker running',
  );
  const workerPid = worker.child.pid;
  let workerOutput = '';
  worker.child.stderr?.on('data', (chunk: Buffer) => (workerOutput = (workerOutput + chunk.toString()).slice(-8_000)));
  // Fails whatever is being waited for as soon as the worker dies, with its last words.
  const workerDied = worker.exited.then(() => {
    const said = workerOutput
      .split('\n')
      .filter((line) => /Error|error/.test(line))
      .slice(0, 3);
    throw new Error(
      `the worker process exited (${worker?.child.signalCode ?? worker?.child.exitCode}): ${said.join(' | ')}`,
    );
  });
  workerDied.catch(() => undefined);

  const control = (path: string, body?: unknown, method?: string) =>
    simulatorControl(stack!.simulator)(path, body, method);
  const plan: JourneyPlan = { banking: true, deadline: '5 minutes' };
  const applicants = await Promise.all(Array.from({ length: JOURNEYS }, () => newApplicant(control)));
  const handles = await Promise.all(applicants.map((a) => startJourney(stack!.client, temporal.taskQueue, a, plan)));
  const acting = Promise.all(applicants.map((a) => applicantActs(stack!.caseFile, control, a, plan, 180_000)));

  const held: string[] = [];
  for (let kill = 1; kill <= KILLS; kill++) {
    const holding = await Promise.race([caseFile.line(`holding commit ${HELD_TABLE} `, 180_000), workerDied]);
    const [, caseId, rows, statements] = /case=(\S+) rows=(\d+) statements=(\d+)$/.exec(holding) ?? [];
    held.push(caseId!);
    // Inside the write: the account inserted (seen in the open transaction), its transactions too.
    expect({ kill, rows: Number(rows), statements: Number(statements) }).toEqual({ kill, rows: 1, statements: 2 });
    await caseFile.kill();
    // None of it survived the kill.
    const left = await afterTheKill((store) => store.counts(caseId!));
    expect({ kill, caseId, bank_accounts: left.bank_accounts, bank_transactions: left.bank_transactions }).toEqual({
      kill,
      caseId,
      bank_accounts: 0,
      bank_transactions: 0,
    });
    caseFile = await startCaseFileProcess({ dataDir, port, holdCommitAfter: kill < KILLS ? HELD_TABLE : undefined });
  }

  await Promise.race([acting, workerDied]);
  const outcomes = await Promise.race([Promise.all(handles.map((h) => h.result())), workerDied]);
  expect(outcomes.map((o) => o.state)).toEqual(outcomes.map(() => 'completed'));
  // The same worker process throughout: no kill of the case file ended it.
  expect({ pid: worker.child.pid, exitCode: worker.child.exitCode, signal: worker.child.signalCode }).toEqual({
    pid: workerPid,
    exitCode: null,
    signal: null,
  });

  // Each held write was retried by Temporal (its activity's last attempt is a later one) and landed.
  for (const caseId of new Set(held)) {
    const history = await stack.client.workflow.getHandle(`case/${caseId}/banking`).fetchHistory();
    const events = history.events ?? [];
    const reads = new Set(
      events
        .filter((e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'readConnectedAccount')
        .map((e) => String(e.eventId)),
    );
    const attempts = events
      .filter((e) => reads.has(String(e.activityTaskStartedEventAttributes?.scheduledEventId)))
      .map((e) => e.activityTaskStartedEventAttributes?.attempt ?? 0);
    expect({ caseId, retried: attempts.some((n) => n > 1) }).toEqual({ caseId, retried: true });
  }

  // Once each: every case's account with exactly the provider's transactions, nothing twice.
  for (const a of applicants) {
    const atProvider = [...stack.simulator.store.accounts.values()].filter((s) => s.case_id === a.caseId);
    const { bankAccounts } = await stack.caseFile.evidence(a.caseId);
    expect(bankAccounts.map((b) => b.account_connection_id)).toEqual(
      atProvider.map((s) => s.account.account_connection_id),
    );
    expect(bankAccounts[0]!.transactions.map((t) => t.transaction_id).sort()).toEqual(
      atProvider[0]!.transactions.transactions.map((t) => t.transaction_id).sort(),
    );
  }
}, 420_000);
