/**
 * Tolerant routing, the step's side: a delivery whose data fails its schema still reaches its
 * resource (tolerant routing) and is shown as the waiting step's last event with its problems, so
 * an operator sees why the step did not move. A valid delivery afterwards shows no problems.
 */
import { randomUUID } from 'node:crypto';
import { startStack, type Stack } from '../../cli/stack';
import { waitForStatus } from '../../cli/watchStatus';
import { identityVerificationWorkflow } from '../../workflows/identityVerificationWorkflow';
import { stepStatusQuery } from '../../client/stepMessages';
import { testCaseFileOption, testDirectory, testTemporalConfig, testWorkflowBundle } from '../setup/testEnvironment';
import { envelope, idvCompleted, post, sign } from '../support/deliveries';
import { simulatorControl } from '../support/faultHarness/rawProviderApi';

let stack: Stack;

beforeAll(async () => {
  stack = await startStack({
    caseFile: testCaseFileOption(),
    temporal: testTemporalConfig(),
    workflowBundle: testWorkflowBundle(),
    simulatorSeed: 77,
    spoolDir: testDirectory('spool'),
    processingDelayMs: 50,
  });
});

afterAll(async () => {
  await stack?.stop();
});

const control = (path: string, body?: unknown, method?: string) =>
  simulatorControl(stack.simulator)(path, body, method);

test("an IDV delivery with invalid data is the step's last event with its problems; the step keeps waiting", async () => {
  const personId = (await control('/persons', {})).person_id as string;
  const handle = await stack.client.workflow.start(identityVerificationWorkflow, {
    workflowId: `step/${randomUUID()}`,
    taskQueue: stack.temporal.taskQueue,
    args: [{ personId, deadline: '1 minute' }],
  });
  const waiting = await waitForStatus(handle, stepStatusQuery, (s) => s.state === 'waiting');
  const requestId = waiting.providerIds.request_id as string;

  const raw = envelope('IdentityVerification.Completed', { ...idvCompleted(requestId), verification_status: 'Maybe' });
  expect(
    (
      await post(stack.bridge.url, raw, {
        'x-hmac-sha256-signature': sign(raw, stack.webhookSecret),
        'x-batch-correlation-id': randomUUID(),
      })
    ).status,
  ).toBe(202);
  const shown = await waitForStatus(handle, stepStatusQuery, (s) => s.lastEvent?.problems !== undefined);
  expect(shown.state).toBe('waiting');
  expect(shown.lastEvent).toMatchObject({
    eventType: 'IdentityVerification.Completed',
    problems: [expect.stringContaining('verification_status')],
  });

  await control(`/identity-verifications/${requestId}/complete`, { verification_status: 'Approved' });
  const outcome = await handle.result();
  expect(outcome.state).toBe('completed');
  expect(outcome.lastEvent?.problems).toBeUndefined();
});
