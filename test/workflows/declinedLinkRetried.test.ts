/**
 * Found by the model-based fault test (test/faults/operatorModel.test.ts): a retry loop with no way
 * out. An IDV attempt stopped while its link was open (waived, or retried before the applicant's
 * answer arrived) is not marked spent, so every later attempt was handed its request as one the
 * person may still complete. Once the applicant had declined that link, each retry adopted the
 * declined request, read Declined and needed attention again: `retryStep`, the action the journey
 * lists first, was accepted forever and never sent a new link.
 */
import { startStack, type Stack } from '../../cli/stack';
import { waitForStatus } from '../../cli/watchStatus';
import { journeyStatusQuery, retryStepUpdate, waiveStepUpdate } from '../../client/journeyMessages';
import { simulatorControl } from '../support/faultHarness/rawProviderApi';
import { testCaseFileOption, testDirectory, testTemporalConfig, testWorkflowBundle } from '../setup/testEnvironment';
import { startOnboardCase } from '../support/startOnboardCase';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({
    temporal: testTemporalConfig(),
    caseFile: testCaseFileOption(),
    workflowBundle: testWorkflowBundle(),
    simulatorSeed: 2021,
    spoolDir: testDirectory('spool'),
    processingDelayMs: 20,
  });
});
afterAll(async () => {
  await stack?.stop();
});

const control = (path: string, body?: unknown, method?: string) =>
  simulatorControl(stack.simulator)(path, body, method);

test('a link declined while its step stood waived: the second retry sends a new link instead of adopting the declined one again', async () => {
  const caseId = (await control('/cases', {})).case_id as string;
  const personId = (await control('/persons', {})).person_id as string;
  // A report waiting for its picklist keeps the journey open while the IDV step is waived.
  const companyId = (
    await control('/companies', {
      company_name: 'Declined Link Ltd',
      company_number: 'DL000001',
      country_code: 'GB',
      registry_copies: 2,
    })
  ).company_id as string;
  const idv = `identity-verification/${personId}`;
  const handle = await startOnboardCase(stack.client, {
    taskQueue: stack.temporal.taskQueue,
    args: [
      {
        caseId,
        company: { company_id: companyId },
        people: [{ personId }],
        steps: { creditReport: true, identityVerification: true },
        deadlines: { identityVerification: '1 minute', picklist: '5 minutes', reconcileAfter: '3 seconds' },
      },
    ],
  });
  const first = await waitForStatus(
    handle,
    journeyStatusQuery,
    (s) => s.steps[idv]?.state === 'waiting' && Boolean(s.steps[idv]?.providerIds.request_id),
  );
  const declined = first.steps[idv]!.providerIds.request_id!;
  await handle.executeUpdate(waiveStepUpdate, { args: [{ step: idv, reason: 'seen in branch' }] });
  // The applicant declines the link they still hold; then the operator re-opens the step.
  await control(`/identity-verifications/${declined}/complete`, { verification_status: 'Declined' });
  await handle.executeUpdate(retryStepUpdate, { args: [{ step: idv, reason: 're-open' }] });
  const attention = await waitForStatus(
    handle,
    journeyStatusQuery,
    (s) => s.steps[idv]?.attempt === 2 && s.steps[idv]?.state === 'needs_attention',
  );
  expect(attention.steps[idv]).toMatchObject({
    providerIds: { request_id: declined },
    actions: [`retryStep ${idv}`, `waiveStep ${idv}`],
  });

  await handle.executeUpdate(retryStepUpdate, { args: [{ step: idv, reason: 'a new link' }] });
  const third = await waitForStatus(
    handle,
    journeyStatusQuery,
    (s) => s.steps[idv]?.attempt === 3 && s.steps[idv]?.state !== 'running',
    20_000,
  );
  expect(third.steps[idv]!.state).toBe('waiting');
  const fresh = third.steps[idv]!.providerIds.request_id!;
  expect(fresh).not.toBe(declined);
  await control(`/identity-verifications/${fresh}/complete`, { verification_status: 'Approved' });
  const done = await waitForStatus(handle, journeyStatusQuery, (s) => s.steps[idv]?.state === 'completed', 20_000);
  expect(done.steps[idv]!.providerIds.request_id).toBe(fresh);
  // Two requests for two needs: the declined one and the new one.
  expect(
    (await control(`/ledger?person_id=${personId}`)).identityVerifications.map(
      (r: { request_id: string }) => r.request_id,
    ),
  ).toEqual([declined, fresh]);
  await handle.cancel();
}, 90_000);
