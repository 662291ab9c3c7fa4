/**
 * Fault suite: the provider misbehaves. (1) Its webhook deliveries are lost, duplicated,
 * delayed, reordered and tampered with; (2) its API answers bursts of 503 and 429. In both, every
 * journey ends as the simulator's record says it should, and the delivery ledger holds: every
 * delivery the bridge answered 2xx is in a resource workflow's log exactly once, and no tampered
 * delivery was accepted. Journeys whose webhook was lost settle by reconciliation polling.
 */
import { startStack, type Stack } from '../../cli/stack';
import type { DeliveryLogEntry } from '../../simulator/store';
import { testCaseFileOption, testDirectory, testTemporalConfig, testWorkflowBundle } from '../setup/testEnvironment';
import { settledLedger } from '../support/faultHarness/deliveryLedger';
import { applicantActs, newApplicant, startJourney, type JourneyPlan } from '../support/faultHarness/faultJourneys';
import { simulatorControl } from '../support/faultHarness/rawProviderApi';

const JOURNEYS = 12;
let stack: Stack;

beforeAll(async () => {
  stack = await startStack({
    caseFile: testCaseFileOption(),
    temporal: testTemporalConfig(),
    workflowBundle: testWorkflowBundle(),
    simulatorSeed: 1111,
    spoolDir: testDirectory('spool'),
    processingDelayMs: 50,
  });
});

afterAll(async () => {
  await stack?.stop();
});

const control = (path: string, body?: unknown, method?: string) =>
  simulatorControl(stack.simulator)(path, body, method);
const deliveries = async () => (await control('/deliveries')) as DeliveryLogEntry[];

/** Runs journeys to their end with the applicant acting as soon as asked. */
async function runJourneys(plan: JourneyPlan) {
  const applicants = await Promise.all(Array.from({ length: JOURNEYS }, () => newApplicant(control)));
  const handles = await Promise.all(
    applicants.map((a) => startJourney(stack.client, stack.temporal.taskQueue, a, plan)),
  );
  await Promise.all(applicants.map((a) => applicantActs(stack.caseFile, control, a, plan)));
  return Promise.all(handles.map((h) => h.result()));
}

test('lost, duplicated, delayed, reordered and tampered deliveries: every journey completes, every 2xx applied once', async () => {
  const before = (await deliveries()).length;
  // Banking cannot be polled (no endpoint shows a connection's state): these journeys have none, so
  // every webhook that matters can be lost and recovered by polling.
  await control(
    '/fault-rates',
    {
      delivery_drop_rate: 0.25,
      delivery_duplicate_rate: 0.2,
      delivery_delay_rate: 0.2,
      delivery_delay_ms: 1_500,
      delivery_reorder_rate: 0.2,
      delivery_tamper_rate: 0.15,
    },
    'PUT',
  );
  const outcomes = await runJourneys({ banking: false });
  await control('/fault-rates', {}, 'PUT');
  // Reordered deliveries wait for a later occurrence; settling sends those still held.
  await control('/settle', {}, 'POST');

  expect(outcomes.map((o) => o.state)).toEqual(outcomes.map(() => 'completed'));
  const log = (await deliveries()).slice(before);
  const faults = new Set(log.flatMap((d) => d.faults));
  // Every kind of fault really fired.
  expect([...faults].sort()).toEqual(['delayed', 'dropped', 'duplicated', 'reordered', 'tampered']);
  const ledger = await settledLedger(stack.client, stack.temporal.taskQueue, async () =>
    (await deliveries()).slice(before),
  );
  expect({
    notApplied: ledger.notApplied,
    appliedTwice: ledger.appliedTwice,
    tamperedAccepted: ledger.tamperedAccepted,
  }).toEqual({ notApplied: [], appliedTwice: [], tamperedAccepted: [] });
  // Tampered deliveries were refused, not lost silently; lost ones were made up for by polling.
  expect(
    log.filter((d) => d.faults.includes('tampered') && !d.faults.includes('dropped')).every((d) => d.status === 401),
  ).toBe(true);
  expect(ledger.polled).toBeGreaterThan(0);
}, 300_000);

/** Resolves once `check` holds, polling; fails after `timeoutMs`. */
async function until(check: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

test('a burst of 503 and 429 from the API: every journey, banking included, completes and every 2xx is applied once', async () => {
  const before = (await deliveries()).length;
  const requestsBefore = stack.simulator.store.requests.length;
  const statuses = () => stack.simulator.store.requests.slice(requestsBefore).map((r) => r.status);
  // A burst: half the calls fail while the journeys start, then the provider recovers. (Rates this
  // high for the whole run would only measure the retry policy's backoff ceiling.)
  await control('/fault-rates', { api_5xx_rate: 0.35, api_429_rate: 0.25, retry_after_seconds: 1 }, 'PUT');
  const plan = { banking: true };
  const applicants = await Promise.all(Array.from({ length: JOURNEYS }, () => newApplicant(control)));
  const handles = await Promise.all(
    applicants.map((a) => startJourney(stack.client, stack.temporal.taskQueue, a, plan)),
  );
  await until(
    () => statuses().filter((s) => s === 503).length >= 8 && statuses().filter((s) => s === 429).length >= 5,
    60_000,
    'the burst',
  );
  await control('/fault-rates', {}, 'PUT');
  await Promise.all(applicants.map((a) => applicantActs(stack.caseFile, control, a, plan)));
  const outcomes = await Promise.all(handles.map((h) => h.result()));

  expect(outcomes.map((o) => o.state)).toEqual(outcomes.map(() => 'completed'));
  const ledger = await settledLedger(stack.client, stack.temporal.taskQueue, async () =>
    (await deliveries()).slice(before),
  );
  expect({ notApplied: ledger.notApplied, appliedTwice: ledger.appliedTwice }).toEqual({
    notApplied: [],
    appliedTwice: [],
  });
  expect(ledger.byOutcome.delivered).toBe((await deliveries()).length - before);
  // A 503 or 429 made nothing, so the purchase ledger sends the call again: one resource per case
  // at the provider, burst or not.
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
}, 300_000);
