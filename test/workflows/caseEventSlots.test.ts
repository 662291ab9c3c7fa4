/**
 * An LOS that holds every request never slows the provider calls: the journey's LOS events (and
 * read-model writes) run on a task queue of their own, with their own activity slots. A worker
 * with few activity slots runs two waves of journeys while the LOS holds the first wave's events;
 * the second wave's steps finish as fast as the first's, and every event arrives once the LOS
 * answers.
 */
import { randomUUID } from 'node:crypto';
import type { WorkflowHandle } from '@temporalio/client';
import { startStack, type Stack } from '../../cli/stack';
import { journeyStatusQuery, type OnboardCaseWorkflow } from '../../client/journeyMessages';
import type { Company } from '../../simulator/store';
import { simulatorControl } from '../support/faultHarness/rawProviderApi';
import { startWorker, type RunningWorker } from '../../worker/createWorker';
import { testCaseFileOption, testDirectory, testTemporalConfig, testWorkflowBundle } from '../setup/testEnvironment';
import { startHoldingLos, type HoldingLos } from '../support/holdingLos';
import { startOnboardCase } from '../support/startOnboardCase';
import { waitUntil } from '../support/waitUntil';

jest.setTimeout(120_000);

const JOURNEYS = Number(process.env.CASE_EVENT_SLOTS_JOURNEYS ?? 10);
/** Fewer than one wave's events: held events on the provider calls' queue would take them all. */
const PROVIDER_SLOTS = 4;

let stack: Stack;
let los: HoldingLos;
let worker: RunningWorker;
let taskQueue: string;

beforeAll(async () => {
  los = await startHoldingLos();
  stack = await startStack({
    temporal: testTemporalConfig(),
    caseFile: testCaseFileOption(),
    workflowBundle: testWorkflowBundle(),
    simulatorSeed: 3305,
    spoolDir: testDirectory('spool'),
    processingDelayMs: 20,
  });
  taskQueue = `slots-${randomUUID()}`;
  worker = await startWorker({
    temporal: { ...stack.temporal, taskQueue },
    provider: stack.provider.config,
    caseFile: stack.caseFile,
    workflowBundle: testWorkflowBundle(),
    payloadKeys: stack.payloadKeys,
    caseEvents: { url: los.url, secret: `whsec_${Buffer.alloc(32, 5).toString('base64')}`, timeoutMs: 60_000 },
    tuning: { maxConcurrentActivityTaskExecutions: PROVIDER_SLOTS, shutdownGraceTime: 1_000 },
  });
}, 120_000);

afterAll(async () => {
  los?.release();
  await worker?.stop();
  await stack?.stop();
  await los?.close();
});

const control = (path: string, body?: unknown) => simulatorControl(stack.simulator)(path, body);

/** Starts `JOURNEYS` credit-report journeys; resolves with them and how long until all their steps completed. */
async function wave(): Promise<{ handles: WorkflowHandle<OnboardCaseWorkflow>[]; caseIds: string[]; ms: number }> {
  const acme = ((await control('/companies')) as Company[]).find((c) => c.company_name === 'Acme Widgets Ltd')!;
  const caseIds = await Promise.all(
    Array.from({ length: JOURNEYS }, () => control('/cases', {}).then((c) => c.case_id as string)),
  );
  const began = Date.now();
  const handles = await Promise.all(
    caseIds.map((caseId) =>
      startOnboardCase(stack.client, {
        taskQueue,
        args: [{ caseId, company: { company_id: acme.company_id }, steps: { creditReport: true } }],
      }),
    ),
  );
  await waitUntil(
    `the steps of ${JOURNEYS} journeys completed`,
    async () => {
      const statuses = await Promise.all(handles.map((h) => h.query(journeyStatusQuery)));
      return statuses.every((s) => Object.values(s.steps).every((step) => step.state === 'completed'));
    },
    { timeoutMs: 100_000, intervalMs: 200 },
  );
  return { handles, caseIds, ms: Date.now() - began };
}

test('provider steps finish as fast while the LOS holds every event, and the events arrive once it answers', async () => {
  los.hold();
  const first = await wave();
  // The first wave's events wait on the LOS: more of them than the provider calls have slots.
  await waitUntil('the LOS holding the first wave’s events', () => los.held() >= PROVIDER_SLOTS + 1, {
    timeoutMs: 30_000,
  });
  const second = await wave();
  // On stdout as is: a console.log would print where it was called, which reads as a stack trace.
  process.stdout.write(
    `${JOURNEYS} journeys' steps: ${first.ms} ms with nothing held, ${second.ms} ms with ${los.held()} LOS requests held\n`,
  );
  expect(second.ms).toBeLessThan(Math.max(3 * first.ms, first.ms + 10_000));

  los.release();
  const caseIds = [...first.caseIds, ...second.caseIds];
  await waitUntil(
    'every event answered by the LOS',
    () =>
      caseIds.every(
        (caseId) =>
          los.answeredIds(caseId, 'case.step_completed').size === 1 &&
          los.answeredIds(caseId, 'case.completed').size === 1,
      ),
    { timeoutMs: 60_000 },
  );
  for (const handle of [...first.handles, ...second.handles]) expect((await handle.result()).state).toBe('completed');
});
