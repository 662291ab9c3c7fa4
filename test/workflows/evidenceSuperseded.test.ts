/**
 * A later result that contradicts the one a journey used is never silently dropped: the provider
 * revises a completed identity check (a second IdentityVerification.Completed for the request,
 * another verdict) after the journey completed with the first. The case file records
 * `case.evidence_superseded` (for the LOS, with verdicts only), the case's timeline shows it, the
 * case comes into the operator's queue (`state=needs_attention`) saying what is wrong until an
 * operator acts on it, and the journey's outcome stands.
 */
import { startStack, type Stack } from '../../cli/stack';
import { waitForStatus } from '../../cli/watchStatus';
import { CaseEventLog } from '../../case-file/caseEventLog';
import { journeyStatusQuery } from '../../client/journeyMessages';
import { eventually } from '../support/caseApiClient';
import { simulatorControl } from '../support/faultHarness/rawProviderApi';
import { testCaseFileOption, testDirectory, testTemporalConfig, testWorkflowBundle } from '../setup/testEnvironment';
import { startOnboardCase } from '../support/startOnboardCase';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({
    temporal: testTemporalConfig(),
    caseFile: testCaseFileOption(),
    workflowBundle: testWorkflowBundle(),
    simulatorSeed: 4711,
    spoolDir: testDirectory('spool'),
    processingDelayMs: 20,
  });
});
afterAll(async () => {
  await stack?.stop();
});

const control = (path: string, body?: unknown) => simulatorControl(stack.simulator)(path, body);

const superseded = async (caseId: string) =>
  (await new CaseEventLog(stack.caseFile.pool).list(caseId)).filter((e) => e.type === 'case.evidence_superseded');

const inQueue = async (caseId: string) =>
  (await stack.caseFile.listCases({ state: 'needs_attention', limit: 500 })).cases.find((c) => c.caseId === caseId);

test('a second IDV result with another verdict: case.evidence_superseded, a queue item until an operator acts, the outcome unchanged', async () => {
  const caseId = (await control('/cases', {})).case_id as string;
  const personId = (await control('/persons', {})).person_id as string;
  const idv = `identity-verification/${personId}`;
  const handle = await startOnboardCase(stack.client, {
    workflowId: `case/${caseId}`,
    taskQueue: stack.temporal.taskQueue,
    args: [{ caseId, people: [{ personId }], steps: { identityVerification: true } }],
  });
  const waiting = await waitForStatus(handle, journeyStatusQuery, (s) => s.steps[idv]?.state === 'waiting');
  const requestId = waiting.steps[idv]!.providerIds.request_id!;
  await control(`/identity-verifications/${requestId}/complete`, { verification_status: 'Approved' });
  expect(await handle.result()).toMatchObject({ state: 'completed' });
  expect(await inQueue(caseId)).toBeUndefined();

  await control(`/identity-verifications/${requestId}/complete-again`, { verification_status: 'Declined' });
  const [event] = await eventually(
    () => superseded(caseId),
    (events) => events.length > 0,
  );
  expect(event!.data).toEqual({
    caseId,
    workflowId: `case/${caseId}`,
    runId: (await handle.describe()).runId,
    step: idv,
    kind: 'identityVerification',
    providerId: requestId,
    used: { verificationStatus: 'Approved' },
    came: { verificationStatus: 'Declined' },
  });

  // In the queue, closed as it is, saying what is wrong; on the timeline.
  const queued = await inQueue(caseId);
  expect(queued).toMatchObject({ state: 'completed', runStatus: 'COMPLETED', outcome: 'completed' });
  expect(queued!.reasons).toContain(`${idv}: evidence superseded (verification Approved, then Declined)`);
  const timeline = await stack.caseFile.timeline(caseId);
  expect(timeline).toContainEqual(
    expect.objectContaining({ kind: 'case_event', type: 'case.evidence_superseded', step: idv }),
  );

  // The journey's outcome stands: nothing ran again.
  expect((await handle.describe()).status.name).toBe('COMPLETED');
  expect((await stack.caseFile.caseRecord(caseId))!.outcome).toBe('completed');
  expect((await control(`/ledger?person_id=${personId}`)).identityVerifications).toHaveLength(1);

  // An operator takes the case: it leaves the queue.
  await stack.caseFile.assignCase({ caseId, assignee: 'ops-1', actor: 'ops-1', reason: null });
  expect(await inQueue(caseId)).toBeUndefined();
}, 90_000);
