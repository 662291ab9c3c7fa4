/**
 * Fault suite: the worker process SIGKILLed while activities are in flight (every provider
 * call takes 1–2 s here, so the kill lands mid-call). A new worker process takes over: the lost
 * attempts time out on their heartbeat and are retried, every journey completes, each case has
 * exactly one resource of each kind at the provider (idempotency keys), and the delivery ledger holds.
 */
import { startStack, type Stack } from '../../cli/stack';
import { workerEnvOf } from '../../cli/stackProcessEnv';
import type { DeliveryLogEntry } from '../../simulator/store';
import { testCaseFileOption, testDirectory, testTemporalConfig, testWorkflowBundle } from '../setup/testEnvironment';
import { killChildren, startChild, type Child } from '../../bench/faultHarness/childProcess';
import { settledLedger } from '../../bench/faultHarness/deliveryLedger';
import { applicantActs, newApplicant, startJourney } from '../../bench/faultHarness/faultJourneys';
import { simulatorControl } from '../../bench/faultHarness/rawProviderApi';

const JOURNEYS = 6;
let stack: Stack;

beforeAll(async () => {
  stack = await startStack({
    caseFile: testCaseFileOption(),
    temporal: testTemporalConfig(),
    workflowBundle: testWorkflowBundle(),
    simulatorSeed: 2222,
    spoolDir: testDirectory('spool'),
    processingDelayMs: 50,
  });
  // The stack's in-process worker would take over the work; this test's worker is a process of its own.
  await stack.worker.stop();
});

afterAll(async () => {
  killChildren();
  await stack?.stop();
});

const control = (path: string, body?: unknown, method?: string) =>
  simulatorControl(stack.simulator)(path, body, method);

function workerProcess(): Promise<Child> {
  return startChild('worker/main.ts', workerEnvOf(stack, process.env.TEST_WORKFLOW_BUNDLE ?? ''), 'worker running');
}

test('a worker SIGKILLed mid-activity: a new worker completes every journey, one provider resource per case, every 2xx applied once', async () => {
  const first = await workerProcess();
  await control('/fault-rates', { api_latency_ms: [1_000, 2_000] }, 'PUT');
  const plan = { banking: true };
  const applicants = await Promise.all(Array.from({ length: JOURNEYS }, () => newApplicant(control)));
  const handles = await Promise.all(
    applicants.map((a) => startJourney(stack.client, stack.temporal.taskQueue, a, plan)),
  );
  const acting = Promise.all(applicants.map((a) => applicantActs(stack.client, control, a, plan, 180_000)));

  // Mid-activity: provider calls have started and some are still being answered (each takes 1–2 s).
  const requestsBefore = stack.simulator.store.requests.length;
  const deadline = Date.now() + 60_000;
  while (stack.simulator.store.requests.length - requestsBefore < 3 && Date.now() < deadline)
    await new Promise((r) => setTimeout(r, 100));
  await first.kill();
  const killedAfter = stack.simulator.store.requests.length - requestsBefore;
  await control('/fault-rates', {}, 'PUT');
  const second = await workerProcess();
  try {
    await acting;
    const outcomes = await Promise.all(handles.map((h) => h.result()));
    expect(killedAfter).toBeGreaterThanOrEqual(3);
    expect(outcomes.map((o) => o.state)).toEqual(outcomes.map(() => 'completed'));
    for (const a of applicants) {
      const byCase = await control(`/ledger?case_id=${a.caseId}`);
      const byPerson = await control(`/ledger?person_id=${a.personId}`);
      expect([
        byPerson.identityVerifications.length,
        byCase.openBankingConnections.length,
        byCase.affordabilityInsights.length,
        byCase.incomeEmployerRequests.length,
      ]).toEqual([1, 1, 1, 1]);
    }
    const ledger = await settledLedger(
      stack.client,
      stack.temporal.taskQueue,
      async () => (await control('/deliveries')) as DeliveryLogEntry[],
    );
    expect({ notApplied: ledger.notApplied, appliedTwice: ledger.appliedTwice }).toEqual({
      notApplied: [],
      appliedTwice: [],
    });
  } finally {
    await second.stop();
  }
}, 300_000);
