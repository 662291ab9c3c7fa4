/**
 * A new run of a closed journey (`journey retry`, an evidence refresh) started while the run
 * before it is still finishing. The read model says a journey closed from the write of its last
 * workflow task, a moment before Temporal closes it: an LOS that refreshes as soon as it reads the
 * case completed must not be told the case is running. The start waits for that close, and only
 * for that: a run the read model does not say closed is never waited for nor joined by a second.
 * Real dev server and case file; the open run is a workflow no worker takes, which times out on
 * its own, and the read model's row is the one its last write would leave.
 */
import { randomUUID } from 'node:crypto';
import { Client, Connection, WorkflowExecutionAlreadyStartedError } from '@temporalio/client';
import type { Duration } from '@temporalio/common';
import type { CaseFileStore } from '../../case-file/store';
import { temporalConnectionOptions } from '../../config/temporalConfig';
import { onboardCaseInputSchema } from '../../client/journeyInput';
import { journeyWorkflowId, journeyWorkflowType } from '../../client/journeyMessages';
import type { JourneyReadContext } from '../../client/journeyOperations';
import { JourneyRetryError } from '../../client/journeyErrors';
import { FINISHING_RUN_WAIT_MS, retryJourney, startNewRun } from '../../client/journeyRetry';
import { testCaseFile, testTemporalConfig } from '../setup/testEnvironment';

let connection: Connection;
let caseFile: CaseFileStore;
let ctx: JourneyReadContext;
// Nobody works on this queue: a run started there stays open until it times out or is terminated.
let idleQueue: string;

beforeAll(async () => {
  const temporal = testTemporalConfig();
  connection = await Connection.connect(temporalConnectionOptions(temporal));
  caseFile = await testCaseFile();
  const client = new Client({ connection, namespace: temporal.namespace });
  ctx = { client, taskQueue: temporal.taskQueue, readModel: caseFile };
  idleQueue = `${temporal.taskQueue}-idle`;
});

afterAll(async () => {
  await caseFile?.close();
  await connection?.close();
});

const inputFor = (caseId: string) =>
  onboardCaseInputSchema.parse({ caseId, company: { company_id: randomUUID() }, steps: { creditReport: true } });

/** An open run on the case's journey id, closing on its own after `timeout`; answers its run id. */
async function openRun(caseId: string, timeout: Duration): Promise<string> {
  const handle = await ctx.client.workflow.start('finishingJourney', {
    workflowId: journeyWorkflowId(caseId),
    taskQueue: idleQueue,
    workflowExecutionTimeout: timeout,
  });
  return handle.firstExecutionRunId;
}

/** The row a run's write of `runStatus` leaves in the read model. */
async function readModelSays(caseId: string, runId: string, runStatus: 'RUNNING' | 'COMPLETED'): Promise<void> {
  const now = new Date().toISOString();
  await caseFile.writeJourneyState({
    caseId,
    workflowId: journeyWorkflowId(caseId),
    runId,
    runStartedAt: now,
    version: 1,
    state: runStatus === 'RUNNING' ? 'running' : 'completed',
    runStatus,
    steps: { 'credit-report': { state: 'completed', providerIds: {} } },
    allSteps: true,
    reasons: [],
    operatorDeadline: null,
    stateSince: now,
  });
}

const runOf = (caseId: string, runId?: string) => ctx.client.workflow.getHandle(journeyWorkflowId(caseId), runId);

test('a run the read model says completed, still finishing, is waited for; the new run starts after it', async () => {
  const caseId = randomUUID();
  const finishing = await openRun(caseId, '3 seconds');
  await readModelSays(caseId, finishing, 'COMPLETED');

  const runId = await startNewRun(ctx, caseId, inputFor(caseId));

  expect((await runOf(caseId, finishing).describe()).status.name).toBe('TIMED_OUT');
  expect(await runOf(caseId).describe()).toMatchObject({
    runId,
    type: journeyWorkflowType,
    status: { name: 'RUNNING' },
  });
  await runOf(caseId).terminate('test done');
});

test('a run the read model says is running fails the start at once: no wait, no second run', async () => {
  const caseId = randomUUID();
  const running = await openRun(caseId, '1 hour');
  await readModelSays(caseId, running, 'RUNNING');

  const started = Date.now();
  await expect(startNewRun(ctx, caseId, inputFor(caseId))).rejects.toBeInstanceOf(WorkflowExecutionAlreadyStartedError);

  expect(Date.now() - started).toBeLessThan(FINISHING_RUN_WAIT_MS);
  expect(await runOf(caseId).describe()).toMatchObject({ runId: running, status: { name: 'RUNNING' } });
  await runOf(caseId).terminate('test done');
});

test('a run newer than the one the read model says closed (another request started it) fails the start at once', async () => {
  const caseId = randomUUID();
  await readModelSays(caseId, randomUUID(), 'COMPLETED');
  const newer = await openRun(caseId, '1 hour');

  const started = Date.now();
  await expect(startNewRun(ctx, caseId, inputFor(caseId))).rejects.toBeInstanceOf(WorkflowExecutionAlreadyStartedError);

  expect(Date.now() - started).toBeLessThan(FINISHING_RUN_WAIT_MS);
  expect(await runOf(caseId).describe()).toMatchObject({ runId: newer, status: { name: 'RUNNING' } });
  await runOf(caseId).terminate('test done');
});

test(
  'a finishing run that stays open past the wait fails the start after it, and is not joined by a second',
  async () => {
    const caseId = randomUUID();
    const stuck = await openRun(caseId, '1 hour');
    await readModelSays(caseId, stuck, 'COMPLETED');

    const started = Date.now();
    await expect(startNewRun(ctx, caseId, inputFor(caseId))).rejects.toBeInstanceOf(
      WorkflowExecutionAlreadyStartedError,
    );

    expect(Date.now() - started).toBeGreaterThanOrEqual(FINISHING_RUN_WAIT_MS);
    expect(await runOf(caseId).describe()).toMatchObject({ runId: stuck, status: { name: 'RUNNING' } });
    await runOf(caseId).terminate('test done');
  },
  FINISHING_RUN_WAIT_MS + 30_000,
);

test('journey retry that meets an open run is refused naming the case and what to do', async () => {
  const caseId = randomUUID();
  const running = await openRun(caseId, '1 hour');
  await readModelSays(caseId, running, 'RUNNING');

  const retried = retryJourney(ctx, { caseId, carriedOver: [], rerun: [], input: inputFor(caseId) });

  await expect(retried).rejects.toBeInstanceOf(JourneyRetryError);
  await expect(retried).rejects.toThrow(`case/${caseId} has a run open on it`);
  await expect(retried).rejects.toThrow('retry again once it has closed');
  await runOf(caseId).terminate('test done');
});
