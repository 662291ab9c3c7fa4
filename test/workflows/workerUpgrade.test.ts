/**
 * A lender's worker upgrade under Worker Versioning, with no patch. A v1 worker runs two
 * journeys, one waiting on its applicant and one on an operator; a v2 worker whose identity
 * verification step differs (test/support/stepCodeV2.ts: an extra command, which fails replay of
 * v1's histories) joins the task queue and is made current. The step that was waiting finishes on
 * v1, pinned; its resource workflow, pinned too, continues as new onto v2 at its next task, while
 * the expired step's resource, which has nothing more to do, stays on v1; the operator's retry
 * starts a new attempt, which runs v2's code; both journeys move to v2 on their own and complete.
 * v1 is then draining, and what still runs on it is what keeps its workers needed. The workers
 * are processes of their own, configured as a lender's are (TEMPORAL_DEPLOYMENT_NAME,
 * TEMPORAL_WORKER_BUILD_ID).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { bundleWorkflowCode, Worker } from '@temporalio/worker';
import { DeterminismViolationError } from '@temporalio/workflow';
import { startStack, type Stack } from '../../cli/stack';
import { workerEnvOf } from '../../cli/stackProcessEnv';
import { attemptWorkflowId, journeyStatusQuery, retryStepUpdate } from '../../client/journeyMessages';
import { resourceStateQuery } from '../../client/resourceMessages';
import { waitForStatus } from '../../cli/watchStatus';
import { dataConverterFor } from '../../codec/dataConverter';
import { workflowBundleOptions } from '../../worker/workflowBundle';
import { resourceWorkflowId } from '../../provider';
import { testCaseFileOption, testDirectory, testTemporalConfig, testWorkflowBundle } from '../setup/testEnvironment';
import { killChildren, startChild, type Child } from '../support/faultHarness/childProcess';
import { newApplicant, type Applicant } from '../support/faultHarness/faultJourneys';
import { simulatorControl } from '../support/faultHarness/rawProviderApi';
import { startOnboardCase } from '../support/startOnboardCase';
import { drainageOf, makeCurrent, runningOn, versionOf } from '../support/workerDeployments';
import { waitUntil } from '../support/waitUntil';

const deploymentName = `journeys-upgrade-${randomUUID().slice(0, 8)}`;
const v1 = { deploymentName, buildId: 'v1' };
const v2 = { deploymentName, buildId: 'v2' };
const WAIT_MS = 60_000;
let stack: Stack;
let v2BundlePath: string;

beforeAll(async () => {
  const [started, v2Bundle] = await Promise.all([
    startStack({
      caseFile: testCaseFileOption(),
      temporal: testTemporalConfig(),
      workflowBundle: testWorkflowBundle(),
      simulatorSeed: 1903,
      spoolDir: testDirectory('spool'),
      processingDelayMs: 50,
    }),
    bundleWorkflowCode(workflowBundleOptions(require.resolve('../support/stepCodeV2'))),
  ]);
  stack = started;
  // The stack's worker is unversioned; this test's workers are versioned processes of their own.
  await stack.worker.stop();
  const dir = testDirectory('v2-bundle');
  mkdirSync(dir, { recursive: true });
  v2BundlePath = path.join(dir, 'workflow-bundle.js');
  writeFileSync(v2BundlePath, v2Bundle.code);
}, 180_000);

afterAll(async () => {
  killChildren();
  await stack?.stop();
});

const control = (p: string, body?: unknown) => simulatorControl(stack.simulator)(p, body);
const idv = (a: Applicant) => `identity-verification/${a.personId}`;
const step = (a: Applicant, attempt: number) =>
  stack.client.workflow.getHandle(attemptWorkflowId(a.caseId, idv(a), attempt));
const idvResource = (requestId: string) =>
  stack.client.workflow.getHandle(resourceWorkflowId({ kind: 'idv', id: requestId }));
const stepCodeOf = async (a: Applicant, attempt: number) => (await step(a, attempt).describe()).memo?.stepCode ?? 'v1';

function versionedWorker(version: typeof v1, bundlePath: string): Promise<Child> {
  return startChild(
    'worker/main.ts',
    {
      ...workerEnvOf(stack, bundlePath),
      TEMPORAL_DEPLOYMENT_NAME: version.deploymentName,
      TEMPORAL_WORKER_BUILD_ID: version.buildId,
    },
    'worker running',
  );
}

function startJourney(a: Applicant) {
  const deadlines = { identityVerification: '10 minutes', operatorDecision: '10 minutes', reconcileAfter: '1 hour' };
  return startOnboardCase(stack.client, {
    taskQueue: stack.temporal.taskQueue,
    args: [{ caseId: a.caseId, people: [{ personId: a.personId }], steps: { identityVerification: true }, deadlines }],
  });
}

type Journey = Awaited<ReturnType<typeof startJourney>>;

/** The IDV request of the step's attempt, once the step waits for the applicant. */
async function requestOf(journey: Journey, a: Applicant, attempt: number): Promise<string> {
  const s = await waitForStatus(
    journey,
    journeyStatusQuery,
    (x) => x.steps[idv(a)]?.state === 'waiting' && x.steps[idv(a)]!.attempt === attempt,
    WAIT_MS,
  );
  return s.steps[idv(a)]!.providerIds.request_id!;
}

async function completed(journey: Journey) {
  await waitForStatus(journey, journeyStatusQuery, (s) => s.state === 'completed', WAIT_MS);
  return journey.result();
}

test('v2 made current: pinned steps finish on v1, the retried attempt runs v2 code, the journeys upgrade and complete, v1 drains', async () => {
  const workerV1 = await versionedWorker(v1, process.env.TEST_WORKFLOW_BUNDLE ?? '');
  await makeCurrent(stack.client, v1);
  const [onApplicant, onOperator] = await Promise.all([newApplicant(control), newApplicant(control)]);
  const [journeyA, journeyB] = await Promise.all([startJourney(onApplicant), startJourney(onOperator)]);
  const requestA = await requestOf(journeyA, onApplicant, 1);
  const requestB1 = await requestOf(journeyB, onOperator, 1);
  await control(`/identity-verifications/${requestB1}/expire`, {});
  await waitForStatus(journeyB, journeyStatusQuery, (s) => s.operatorDeadline != null, WAIT_MS);
  // The expired step has left its resource, which then waits for nothing before v2 is current.
  await waitUntil(
    'the expired step unsubscribed',
    async () => (await idvResource(requestB1).query(resourceStateQuery)).subscribers.length === 0,
    { timeoutMs: WAIT_MS },
  );

  const workerV2 = await versionedWorker(v2, v2BundlePath);
  await makeCurrent(stack.client, v2);
  const v2CurrentAt = Date.now();

  // The applicant finishes the check v1's step asked for; the operator retries the expired one.
  await control(`/identity-verifications/${requestA}/complete`, { verification_status: 'Approved' });
  await journeyB.executeUpdate(retryStepUpdate, {
    args: [{ step: idv(onOperator), reason: 'the applicant asked for a new link' }],
  });
  const requestB2 = await requestOf(journeyB, onOperator, 2);
  await control(`/identity-verifications/${requestB2}/complete`, { verification_status: 'Approved' });
  const [resultA, resultB] = await Promise.all([completed(journeyA), completed(journeyB)]);
  expect([resultA.state, resultB.state]).toEqual(['completed', 'completed']);

  // Pinned: the steps v1 started stayed on v1 and ran v1's code, A's to its end after the switch.
  expect(await versionOf(step(onApplicant, 1))).toEqual({ behavior: 'PINNED', buildId: 'v1' });
  expect((await step(onApplicant, 1).describe()).closeTime!.getTime()).toBeGreaterThan(v2CurrentAt);
  // A's resource had a task after the switch (the applicant's delivery): it continued as new onto
  // v2, where its new run is pinned. B's first resource had none and is still pinned to v1.
  await waitUntil("A's resource on v2", async () => (await versionOf(idvResource(requestA))).buildId === 'v2', {
    timeoutMs: WAIT_MS,
  });
  expect(await versionOf(idvResource(requestA))).toEqual({ behavior: 'PINNED', buildId: 'v2' });
  expect(await versionOf(idvResource(requestB1))).toEqual({ behavior: 'PINNED', buildId: 'v1' });
  expect(await versionOf(step(onOperator, 1))).toEqual({ behavior: 'PINNED', buildId: 'v1' });
  expect([await stepCodeOf(onApplicant, 1), await stepCodeOf(onOperator, 1)]).toEqual(['v1', 'v1']);
  // The new attempt (and the resource it subscribed to) started on v2 and ran v2's code.
  expect(await versionOf(step(onOperator, 2))).toEqual({ behavior: 'PINNED', buildId: 'v2' });
  expect(await versionOf(idvResource(requestB2))).toEqual({ behavior: 'PINNED', buildId: 'v2' });
  expect(await stepCodeOf(onOperator, 2)).toBe('v2');
  // The journeys upgraded on their own.
  expect(await versionOf(journeyA)).toEqual({ behavior: 'AUTO_UPGRADE', buildId: 'v2' });
  expect(await versionOf(journeyB)).toEqual({ behavior: 'AUTO_UPGRADE', buildId: 'v2' });

  // v1 is draining: the journeys, the steps and A's resource have left it; B's first resource still
  // runs there (until its next task moves it, or resourceQuietAfterOutcome or resourceRetention
  // ends it), so its workers must stay.
  expect(await drainageOf(stack.client, v1)).toBe('DRAINING');
  await waitUntil(
    "only B's first resource left on v1",
    async () => {
      const running = await runningOn(stack.client, v1);
      return running.length === 1 && running[0] === `resourceWorkflow ${idvResource(requestB1).workflowId}`;
    },
    { timeoutMs: WAIT_MS },
  );

  // Without pinning, v2 would have needed a patch: v1's step history does not replay on v2's code.
  const history = await step(onApplicant, 1).fetchHistory();
  const dataConverter = dataConverterFor(stack.payloadKeys);
  await expect(
    Worker.runReplayHistory({ workflowBundle: { codePath: v2BundlePath }, dataConverter }, history),
  ).rejects.toBeInstanceOf(DeterminismViolationError);
  await Worker.runReplayHistory({ workflowBundle: testWorkflowBundle(), dataConverter }, history);

  await Promise.all([workerV1.stop(), workerV2.stop()]);
}, 180_000);
