/**
 * Fault suite: the worker process SIGKILLed while activities are in flight (every provider
 * call takes 1–2 s here, so the kill lands mid-call; the provider makes what a call asks for as it
 * arrives). The simulator ignores idempotency keys, as the spec gives none. A new worker process
 * takes over: the lost attempts time out on their heartbeat and are retried, and a creating call
 * whose outcome the kill left unknown is never sent again but found (the person's IDV list, the
 * webhook naming the case). Every journey completes; each case has exactly one resource of each
 * kind at the provider, each in the case's purchase ledger held by the call that made it, none in
 * another case's; and the delivery ledger holds.
 *
 * The applicant connects their bank through whatever link reached them: for a connection whose
 * answer died with the worker, the provider's (the simulator's ledger stands in for it).
 */
import { startStack, type Stack } from '../../cli/stack';
import { workerEnvOf } from '../../cli/stackProcessEnv';
import type { DeliveryLogEntry } from '../../simulator/store';
import { testCaseFileOption, testDirectory, testTemporalConfig, testWorkflowBundle } from '../setup/testEnvironment';
import { killChildren, startChild, type Child } from '../support/faultHarness/childProcess';
import { settledLedger } from '../support/faultHarness/deliveryLedger';
import { newApplicant, startJourney, type Applicant } from '../support/faultHarness/faultJourneys';
import { readCaseStatus } from '../../client/caseReads';
import { waitUntil } from '../support/waitUntil';
import { simulatorControl } from '../support/faultHarness/rawProviderApi';

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

/**
 * The applicant, until the journey closes: approves the IDV request the journey holds, and connects
 * every bank connection the provider made for the case. The journey is read from the case file's
 * read model: a query sent while the killed worker's run waits for its next task can split that
 * task, and the run then no longer replays (docs/reliability.md).
 */
async function applicant(a: Applicant, timeoutMs: number): Promise<void> {
  const handle = stack.client.workflow.getHandle(`case/${a.caseId}`);
  const idv = `identity-verification/${a.personId}`;
  const done = new Set<string>();
  await waitUntil(
    `case ${a.caseId} closed`,
    async () => {
      const s = await readCaseStatus(stack.caseFile, a.caseId);
      const request = s?.steps[idv]?.providerIds.request_id;
      if (s?.steps[idv]?.state === 'waiting' && request && !done.has(request)) {
        done.add(request);
        await control(`/identity-verifications/${request}/complete`, { verification_status: 'Approved' });
      }
      const made = (await control(`/ledger?case_id=${a.caseId}`)).openBankingConnections as {
        bank_connection_id: string;
        status: string;
      }[];
      for (const c of made.filter((c) => c.status === 'Pending' && !done.has(c.bank_connection_id))) {
        done.add(c.bank_connection_id);
        await control(`/open-banking-connections/${c.bank_connection_id}/complete`, {
          status: 'Connected',
          accounts: 1,
        });
      }
      return (await handle.describe()).status.name !== 'RUNNING';
    },
    { timeoutMs, intervalMs: 250 },
  );
}

/**
 * Every resource the provider made for the case is in the case's purchase ledger, held by the row
 * of the call that made it (the key the simulator kept), and the ledger holds nothing else.
 */
async function everyPurchaseLedgered(a: Applicant): Promise<string[]> {
  const byCase = await control(`/ledger?case_id=${a.caseId}`);
  const byPerson = await control(`/ledger?person_id=${a.personId}`);
  type Made = { idempotency_key: string | null } & Record<string, unknown>;
  const made = (kind: string, list: Made[], field: string) =>
    list.map((r) => ({ kind, id: String(r[field]).toLowerCase(), key: r.idempotency_key }));
  const provider = [
    ...made('idv', byPerson.identityVerifications, 'request_id'),
    ...made('open-banking', byCase.openBankingConnections, 'bank_connection_id'),
    ...made('affordability', byCase.affordabilityInsights, 'request_id'),
    ...made('income-employer', byCase.incomeEmployerRequests, 'request_id'),
  ];
  const ledger = (await stack.caseFile.evidence(a.caseId)).purchases.map((p) => ({
    kind: p.kind,
    id: p.provider_id?.toLowerCase() ?? null,
    key: p.call_key,
  }));
  const problems: string[] = [];
  for (const r of provider)
    if (!ledger.some((p) => p.kind === r.kind && p.id === r.id && p.key === r.key))
      problems.push(`${r.kind} ${r.id} (made by ${r.key}) is not held by its call in case ${a.caseId}'s ledger`);
  for (const p of ledger)
    if (!provider.some((r) => r.kind === p.kind && r.id === p.id))
      problems.push(
        `case ${a.caseId}'s ledger holds ${p.kind} ${p.id} (${p.key}), which the provider did not make for it`,
      );
  return problems;
}

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
  const acting = Promise.all(applicants.map((a) => applicant(a, 180_000)));

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
      expect(await everyPurchaseLedgered(a)).toEqual([]);
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
