/**
 * A bulk retry waits a bounded time for each journey's answer: a journey that never runs the
 * Update (its workflow tasks failing, or no worker on its queue) is reported `failed` with what to
 * do, and the run goes on to the other cases instead of waiting for ever.
 */
import { randomUUID } from 'node:crypto';
import { Client, Connection } from '@temporalio/client';
import { runBulkStepRetry, type BulkRetryPlan } from '../../client/bulkStepRetry';
import { journeyWorkflowType } from '../../client/journeyMessages';
import { testTemporalConfig } from '../setup/testEnvironment';

let connection: Connection;
let client: Client;
const temporal = testTemporalConfig();

beforeAll(async () => {
  connection = await Connection.connect({ address: temporal.address });
  client = new Client({ connection, namespace: temporal.namespace });
});

afterAll(async () => {
  await connection?.close();
});

test('a journey that never answers is reported failed after the bound; the other cases are still answered', async () => {
  // A journey on a task queue no worker polls: Temporal admits the Update, and nothing runs it.
  const caseId = `unanswered-${randomUUID()}`;
  const handle = await client.workflow.start(journeyWorkflowType, {
    workflowId: `case/${caseId}`,
    taskQueue: temporal.taskQueue,
    args: [{ caseId }],
  });
  const gone = `gone-${randomUUID()}`;
  const plan: BulkRetryPlan = {
    query: '',
    step: 'credit-report',
    requestId: `bulk-test-${randomUUID()}`,
    cases: [
      { caseId, workflowId: handle.workflowId, runId: handle.firstExecutionRunId, state: 'running' },
      { caseId: gone, workflowId: `case/${gone}`, runId: '', state: 'running' },
    ],
    more: false,
  };
  try {
    const started = Date.now();
    const summary = await runBulkStepRetry({ client, taskQueue: temporal.taskQueue }, plan, {
      reason: 'provider outage',
      answerWithinMs: 2_000,
    });
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(summary.accepted).toEqual([]);
    expect(summary.failed).toEqual([
      {
        caseId,
        outcome: 'failed',
        message: expect.stringMatching(new RegExp(`^no answer within 2 s: .*request id ${plan.requestId}`)),
      },
    ]);
    expect(summary.refused).toEqual([expect.objectContaining({ caseId: gone, outcome: 'refused' })]);
  } finally {
    await handle.terminate('test over');
  }
});
