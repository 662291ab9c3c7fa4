/**
 * A journey started by a client that skipped the input schema (`temporal workflow start`, say)
 * with an id it cannot use ends at once, failed and named, instead of running with a workflow task
 * that fails forever (a child workflow id too long for Temporal) and that a cancel cannot reach.
 * And the longest ids the schema takes make workflow ids Temporal takes.
 */
import { randomUUID } from 'node:crypto';
import { WorkflowFailedError } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import { startStack, type Stack } from '../../cli/stack';
import { attemptWorkflowId, journeyWorkflowId, journeyWorkflowType } from '../../client/journeyMessages';
import { testCaseFileOption, testDirectory, testTemporalConfig, testWorkflowBundle } from '../setup/testEnvironment';
import { waitUntil } from '../support/waitUntil';

jest.setTimeout(90_000);

let stack: Stack;

beforeAll(async () => {
  stack = await startStack({
    temporal: testTemporalConfig(),
    caseFile: testCaseFileOption(),
    workflowBundle: testWorkflowBundle(),
    simulatorSeed: 7411,
    spoolDir: testDirectory('spool'),
    processingDelayMs: 20,
  });
});

afterAll(async () => {
  await stack?.stop();
});

const startRaw = (caseId: string, personId: string) =>
  stack.client.workflow.start(journeyWorkflowType, {
    workflowId: journeyWorkflowId(caseId),
    taskQueue: stack.temporal.taskQueue,
    args: [{ caseId, people: [{ personId }], steps: { identityVerification: true } }],
  });

test('a journey started directly with a 3,000-character personId fails at once, naming it, and is closed', async () => {
  const handle = await startRaw(`ids-${randomUUID()}`, 'p'.repeat(3000));
  // Either it has ended within the bound, or it is still running with a workflow task that fails.
  let bound: NodeJS.Timeout | undefined;
  const outcome = await Promise.race([
    handle.result().then(
      () => 'completed',
      (error: unknown) => error,
    ),
    new Promise((resolve) => (bound = setTimeout(() => resolve('still running after 30 s'), 30_000))),
  ]);
  clearTimeout(bound);
  const description = await handle.describe();
  if (description.status.name === 'RUNNING') await handle.terminate('left running by the test');
  expect({ outcome: typeof outcome === 'string' ? outcome : 'failed', status: description.status.name }).toEqual({
    outcome: 'failed',
    status: 'FAILED',
  });
  expect(outcome).toBeInstanceOf(WorkflowFailedError);
  const cause = (outcome as WorkflowFailedError).cause as ApplicationFailure;
  expect(cause.type).toBe('InvalidJourneyInput');
  expect(cause.nonRetryable).toBe(true);
  expect(cause.message).toContain('people[0].personId');
  expect(cause.message).toContain('at most 200 characters');
});

test('the longest ids the schema takes make child workflow ids Temporal takes', async () => {
  const caseId = `c${'a'.repeat(199)}`;
  const personId = `p${'b'.repeat(199)}`;
  const handle = await startRaw(caseId, personId);
  const child = stack.client.workflow.getHandle(attemptWorkflowId(caseId, `identity-verification/${personId}`, 1));
  // The step's child workflow exists: its start was not refused for the length of its id.
  await waitUntil('the identity verification step started', async () => (await child.describe()).workflowId);
  await handle.terminate('test done');
});
