/**
 * Fault suite: provider outages need no operator. On a short clock (deadlines scaled down
 * by 360: the 6-hour provider call budget is 60 s, a 2-hour outage 20 s):
 *
 * 1. 50 open journeys (credit report and one person's IDV) through a 2-hour outage, every API route
 *    answering 503: half of them hold their IDV link when it starts (their applicants act during
 *    it), half start during it. Every journey completes once the provider is back, with no
 *    operator action and no extra purchase (one report per company, one IDV request per person);
 *    meanwhile steps show `waiting`, "provider unavailable since …".
 * 2. An outage longer than the budget: 50 credit reports end `failed`. One invocation of the
 *    operator's command, `journey retry-step --where … --yes` (spawned as an operator runs it),
 *    accepts all 50, and every journey completes with one report. One report's call is cut off
 *    while it is out (its intent left in the purchase ledger, as a killed worker leaves it; a
 *    loaded machine can cut off others): a purchase of unknown outcome, so its journey asks the
 *    operator, who sees nothing made at the provider and retries it `--fresh`.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { startStack, type Stack } from '../../cli/stack';
import type { OnboardCaseInput } from '../../client/journeyInput';
import { callKey, purchaseKey } from '../../client/purchaseKey';
import { journeyStatusQuery, type JourneyStatus, type OnboardCaseWorkflow } from '../../client/journeyMessages';
import { startJourney, type JourneyClientContext } from '../../client/journeyOperations';
import { simulatorControl, type Json } from '../support/faultHarness/rawProviderApi';
import { testCaseFileOption, testDirectory, testTemporalConfig, testWorkflowBundle } from '../setup/testEnvironment';
import { waitUntil } from '../support/waitUntil';

/** A line of the run's output (process.stdout, not jest's console, which adds a stack frame to each line). */
const print = (line: string) => process.stdout.write(`${line}\n`);

const JOURNEYS = 50;
/** 6 hours / 360. */
const BUDGET = '60 seconds';
/** 2 hours / 360. */
const OUTAGE_MS = 20_000;

let stack: Stack;
let ctx: JourneyClientContext;

beforeAll(async () => {
  stack = await startStack({
    caseFile: testCaseFileOption(),
    temporal: testTemporalConfig(),
    workflowBundle: testWorkflowBundle(),
    simulatorSeed: 3600,
    spoolDir: testDirectory('spool'),
    processingDelayMs: 50,
  });
  ctx = { client: stack.client, taskQueue: stack.temporal.taskQueue };
});

afterAll(async () => {
  await control('/fault-rates', {}, 'PUT').catch(() => undefined);
  await stack?.stop();
});

const control = (path: string, body?: unknown, method?: string) =>
  simulatorControl(stack.simulator)(path, body, method);
const down = () => control('/fault-rates', { api_5xx_rate: 1 }, 'PUT');
const up = () => control('/fault-rates', {}, 'PUT');

interface Case {
  caseId: string;
  companyId: string;
  personId?: string;
}

async function newCase(n: number, withPerson: boolean): Promise<Case> {
  const caseId = (await control('/cases', {})).case_id as string;
  const companyId = (
    await control('/companies', {
      company_name: `Outage ${n} Ltd`,
      company_number: `OU${String(n).padStart(6, '0')}`,
      country_code: 'GB',
    })
  ).company_id as string;
  const personId = withPerson ? ((await control('/persons', {})).person_id as string) : undefined;
  return { caseId, companyId, personId: personId || undefined };
}

function inputOf(c: Case): OnboardCaseInput {
  return {
    caseId: c.caseId,
    company: { company_id: c.companyId },
    people: c.personId ? [{ personId: c.personId }] : undefined,
    steps: { creditReport: true, identityVerification: c.personId !== undefined },
    // 14 days, 1 hour and 30 days scaled down likewise (and rounded up: nothing here should expire).
    deadlines: {
      providerCalls: BUDGET,
      identityVerification: '10 minutes',
      reconcileAfter: '10 seconds',
      operatorDecision: '30 minutes',
    },
  };
}

const journeyBin = path.resolve(__dirname, '../../cli/journeyBin.cjs');

/** `journey <args> --json` as an operator runs it, against this stack; its exit code and parsed output. */
async function journey(args: string[]): Promise<{ code: number; out: Json; stderr: string }> {
  const env = {
    ...process.env,
    TEMPORAL_ADDRESS: stack.temporal.address,
    TEMPORAL_NAMESPACE: stack.temporal.namespace,
    TEMPORAL_TASK_QUEUE: stack.temporal.taskQueue,
    DATABASE_URL: stack.caseFileUrl,
  };
  const ran = await promisify(execFile)(process.execPath, [journeyBin, ...args, '--json'], {
    env,
    maxBuffer: 16 * 2 ** 20,
    // Past this the command is stopped, and its exit code and output say how far it got.
    timeout: 200_000,
  }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: { code: number; stdout: string; stderr: string }) => ({
      code: error.code,
      stdout: error.stdout,
      stderr: error.stderr,
    }),
  );
  return { code: ran.code, out: ran.stdout ? JSON.parse(ran.stdout) : undefined, stderr: ran.stderr };
}

const handleOf = (c: Case) => stack.client.workflow.getHandle<OnboardCaseWorkflow>(`case/${c.caseId}`);
const statusOf = (c: Case) =>
  handleOf(c)
    .query(journeyStatusQuery)
    .catch(() => undefined);
const idvOf = (c: Case, s: JourneyStatus | undefined) => s?.steps[`identity-verification/${c.personId}`];

/** The applicant completes their link once the step holds it (waiting, with a request id). */
async function applicantActs(c: Case, timeoutMs: number, signal: AbortSignal): Promise<void> {
  const requestId = await waitUntil(
    `case ${c.caseId} holding its IDV link`,
    async () => {
      const step = idvOf(c, await statusOf(c));
      return step?.state === 'waiting' && step.providerIds.request_id ? step.providerIds.request_id : undefined;
    },
    { timeoutMs, intervalMs: 500, signal },
  );
  await control(`/identity-verifications/${requestId}/complete`, { verification_status: 'Approved' });
}

/**
 * Every applicant acts; the first who cannot stops the others' waits, and this returns only once
 * they have stopped, so that none polls a stack the suite has stopped.
 */
async function applicantsAct(cases: readonly Case[], timeoutMs: number): Promise<void> {
  const stop = new AbortController();
  const settled = await Promise.allSettled(
    cases.map((c) =>
      applicantActs(c, timeoutMs, stop.signal).catch((error: unknown) => {
        stop.abort();
        throw error;
      }),
    ),
  );
  const failed = settled.find((result) => result.status === 'rejected');
  if (failed) throw failed.reason;
}

async function ledgerCounts(c: Case): Promise<{ reports: number; requests: number }> {
  const reports = (await control(`/ledger?company_id=${c.companyId}`)).creditReports.length as number;
  const requests = c.personId
    ? ((await control(`/ledger?person_id=${c.personId}`)).identityVerifications.length as number)
    : 0;
  return { reports, requests };
}

/**
 * Each journey's result. Past `timeoutMs` it fails naming the journeys still open and what their
 * steps show, where a bare wait would end in Jest's timeout with nothing to go on.
 */
async function resultsOf(cases: readonly Case[], timeoutMs: number): Promise<JourneyStatus[]> {
  const open = new Set(cases.map((c) => c.caseId));
  const results = Promise.all(
    cases.map(async (c) => {
      const result = await handleOf(c).result();
      open.delete(c.caseId);
      return result;
    }),
  );
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<'timed out'>((resolve) => (timer = setTimeout(() => resolve('timed out'), timeoutMs)));
  try {
    const first = await Promise.race([results, timedOut]);
    if (first !== 'timed out') return first;
  } finally {
    clearTimeout(timer);
  }
  const stillOpen = cases.filter((c) => open.has(c.caseId));
  const shown = await Promise.all(
    stillOpen.slice(0, 5).map(async (c) => {
      const status = await statusOf(c);
      const steps = Object.entries(status?.steps ?? {}).map(
        ([name, step]) => `${name} ${step.state} attempt ${step.attempt}${step.reason ? ` (${step.reason})` : ''}`,
      );
      return `case ${c.caseId}: ${status?.state ?? 'no answer to the status query'}; ${steps.join(', ')}`;
    }),
  );
  throw new Error(
    `${stillOpen.length} of ${cases.length} journeys still open after ${timeoutMs / 1000} s:\n${shown.join('\n')}`,
  );
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(0)} s`;
const summary: string[] = [];

afterAll(() => {
  if (summary.length > 0) print(`provider outage summary: ${summary.join('; ')}`);
});

test(`a 2-hour outage (${OUTAGE_MS / 1000} s on a clock scaled by 360) over ${JOURNEYS} open journeys: every one completes with no operator action and no extra purchase`, async () => {
  const began = Date.now();
  const cases = await Promise.all(Array.from({ length: JOURNEYS }, (_, n) => newCase(n, true)));
  const [early, late] = [cases.slice(0, JOURNEYS / 2), cases.slice(JOURNEYS / 2)];
  const requestsBefore = stack.simulator.store.requests.length;

  // Half the journeys are under way (their report bought, the applicant's link sent) when the provider goes down.
  await Promise.all(early.map((c) => startJourney(ctx, inputOf(c))));
  await waitUntil(
    'the first journeys holding their IDV links',
    async () =>
      (await Promise.all(early.map(async (c) => idvOf(c, await statusOf(c))?.state === 'waiting'))).every(Boolean),
    { timeoutMs: 60_000, intervalMs: 500 },
  );
  await down();
  const outageBegan = Date.now();
  // The other half start during the outage; the first half's applicants act during it (the result cannot be read).
  await Promise.all(late.map((c) => startJourney(ctx, inputOf(c))));
  await applicantsAct(early, 10_000);
  // While it lasts, steps say they wait for the provider and what it last answered.
  const unavailable = await waitUntil(
    'steps showing the provider unavailable',
    async () => {
      const statuses = await Promise.all(cases.map(statusOf));
      const waiting = statuses
        .flatMap((s) => Object.values(s?.steps ?? {}))
        .filter((step) => step.state === 'waiting' && step.reason?.startsWith('provider unavailable since'));
      return waiting.length >= JOURNEYS / 2 ? waiting : undefined;
    },
    { timeoutMs: OUTAGE_MS - 2_000, intervalMs: 1_000 },
  );
  expect(unavailable[0]!.error).toMatchObject({ status: 503 });
  // The outage's length is the scenario itself (2 hours scaled), not a wait for something to happen.
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, OUTAGE_MS - (Date.now() - outageBegan))));
  await up();
  const outageMs = Date.now() - outageBegan;
  const refused = stack.simulator.store.requests.slice(requestsBefore).filter((r) => r.status === 503).length;

  await applicantsAct(late, 120_000);
  const outcomes = await resultsOf(cases, 120_000);
  expect(outcomes.map((o) => o.state)).toEqual(cases.map(() => 'completed'));
  // No operator: every step completed on its first attempt.
  expect(outcomes.flatMap((o) => Object.values(o.steps).map((s) => s.attempt))).toEqual(
    outcomes.flatMap((o) => Object.values(o.steps).map(() => 1)),
  );
  const counts = await Promise.all(cases.map(ledgerCounts));
  expect(counts).toEqual(cases.map(() => ({ reports: 1, requests: 1 })));
  summary.push(
    `ride-through ${JOURNEYS} journeys, outage ${seconds(outageMs)} (${refused} calls answered 503, ${unavailable.length} steps shown waiting for the provider), all completed ${seconds(Date.now() - outageBegan - outageMs)} after it, 0 operator actions, ${counts.length} reports and ${counts.length} IDV requests, in ${seconds(Date.now() - began)}`,
  );
}, 300_000);

test(`an outage longer than the ${BUDGET} budget leaves ${JOURNEYS} credit reports failed; one bulk retry recovers all of them`, async () => {
  const began = Date.now();
  const cases = await Promise.all(Array.from({ length: JOURNEYS }, (_, n) => newCase(1_000 + n, false)));
  await down();
  await Promise.all(cases.map((c) => startJourney(ctx, inputOf(c))));
  // The provider stays down until every report's calls have spent their budget.
  await waitUntil(
    `${JOURNEYS} credit reports failed`,
    async () =>
      (
        await Promise.all(cases.map(async (c) => (await statusOf(c))?.steps['credit-report']?.state === 'failed'))
      ).every(Boolean),
    {
      timeoutMs: 180_000,
      intervalMs: 2_000,
    },
  );
  await up();
  const failedAfter = Date.now() - began;
  // One report's call was cut off while it was out (as a worker killed mid-call leaves it): its
  // intent stays in the purchase ledger with no outcome. The provider made nothing for it.
  const cutOff = cases[0]!;
  await stack.caseFile.recordPurchaseIntent({
    callKey: callKey(purchaseKey(cutOff.caseId, 'credit-report', 1), 'request'),
    kind: 'credit-report',
    subject: cutOff.companyId,
    fresh: false,
  });
  const attention = await Promise.all(cases.map(statusOf));
  expect(attention.map((s) => s?.state)).toEqual(cases.map(() => 'needs_attention'));
  // Each step shows the provider's last answer, a 503; or, where the budget ran out while a call
  // was still out or its outcome still looked for (a loaded machine), Temporal's timeout or the
  // search, with no provider status.
  const lastError = (s: JourneyStatus | undefined) => {
    const error = s?.steps['credit-report']?.error;
    if (error?.status === 503) return 'the provider answered 503';
    const cutOffMessage = /^the call's budget ran out before the provider answered|^looking for what the provider made/;
    return error?.status === null && cutOffMessage.test(error.message) ? 'cut off by the budget' : error;
  };
  for (const s of attention) expect(['the provider answered 503', 'cut off by the budget']).toContain(lastError(s));
  expect(attention.map((s) => s?.steps['credit-report']?.actions)).toEqual(
    cases.map(() => ['retryStep credit-report', 'waiveStep credit-report']),
  );

  // The operator's command: a dry run (the default) lists the cases, then one invocation with --yes retries them all.
  const bulk = [
    'retry-step',
    '--where',
    `JourneyState = 'needs_attention'`,
    '--step',
    'credit-report',
    '--reason',
    'the provider is back after an outage',
  ];
  const plan = await waitUntil(
    'the dry run listing every failed journey (visibility lags a moment)',
    async () => {
      const dry = await journey(bulk);
      expect({ code: dry.code, stderr: dry.stderr }).toEqual({ code: 0, stderr: expect.any(String) });
      return dry.out.cases.length === JOURNEYS ? dry.out : undefined;
    },
    { timeoutMs: 30_000, intervalMs: 1_000 },
  );
  expect(plan).toMatchObject({ dryRun: true, step: 'credit-report', more: false });
  expect(plan.cases.map((c: { stepState: string }) => c.stepState)).toEqual(plan.cases.map(() => 'failed'));
  const retryBegan = Date.now();
  const run = await journey([...bulk, '--request-id', plan.requestId, '--concurrency', '8', '--yes']);
  const retryMs = Date.now() - retryBegan;
  expect({ code: run.code, stderr: run.code === 0 ? '' : run.stderr.slice(-3000) }).toEqual({ code: 0, stderr: '' });
  const retried = run.out as { cases: number; accepted: { caseId: string }[]; refused: unknown[]; failed: unknown[] };
  expect({
    cases: retried.cases,
    accepted: retried.accepted.length,
    refused: retried.refused,
    failed: retried.failed,
  }).toEqual({ cases: JOURNEYS, accepted: JOURNEYS, refused: [], failed: [] });
  expect(new Set(retried.accepted.map((a) => a.caseId))).toEqual(new Set(cases.map((c) => c.caseId)));
  // Progress while it ran: a line per case on stderr.
  expect(run.stderr.match(new RegExp(`^\\d+/${JOURNEYS} case \\S+ accepted`, 'gm'))).toHaveLength(JOURNEYS);

  // A creating call whose answer never came leaves its purchase unknown (the one cut off above, and
  // any whose attempt a loaded machine cut off): the journey asks the operator instead of buying
  // again. The provider's ledger shows that nothing was made, so the operator buys anew.
  const unknownPurchase = await waitUntil(
    'every journey completed, or asking about a purchase whose outcome is unknown',
    async () => {
      const asking: Case[] = [];
      for (const c of cases) {
        if ((await handleOf(c).describe()).status.name === 'COMPLETED') continue;
        const step = (await statusOf(c))?.steps['credit-report'];
        if (step?.state !== 'needs_attention' || !step.reason?.startsWith('purchase outcome unknown')) return undefined;
        asking.push(c);
      }
      return asking;
    },
    { timeoutMs: 120_000, intervalMs: 2_000 },
  );
  expect(unknownPurchase).toContain(cutOff);
  for (const c of unknownPurchase) {
    expect(await ledgerCounts(c)).toEqual({ reports: 0, requests: 0 });
    const fresh = await journey(['retry-step', c.caseId, 'credit-report', 'nothing made in the outage', '--fresh']);
    expect({ code: fresh.code, stderr: fresh.code === 0 ? '' : fresh.stderr }).toEqual({ code: 0, stderr: '' });
  }

  const outcomes = await resultsOf(cases, 120_000);
  expect(outcomes.map((o) => o.state)).toEqual(cases.map(() => 'completed'));
  // The retry continued the need (same key): the failed attempt bought nothing, the second bought
  // one report. Where the outcome was unknown, the operator's fresh attempt bought it, for a new need.
  expect(outcomes.map((o) => o.steps['credit-report']!.attempts.map((a) => [a.attempt, a.state, a.need]))).toEqual(
    cases.map((c) =>
      unknownPurchase.includes(c)
        ? [
            [1, 'failed', 1],
            [2, 'needs_attention', 1],
            [3, 'completed', 2],
          ]
        : [
            [1, 'failed', 1],
            [2, 'completed', 1],
          ],
    ),
  );
  const counts = await Promise.all(cases.map(ledgerCounts));
  expect(counts.map((c) => c.reports)).toEqual(cases.map(() => 1));
  summary.push(
    `bulk retry: ${JOURNEYS} reports failed ${seconds(failedAfter)} into an outage longer than the budget (${attention.filter((a) => lastError(a) === 'cut off by the budget').length} cut off mid-call), one journey retry-step --where … --yes accepted ${retried.accepted.length} of ${retried.cases} in ${seconds(retryMs)}, ${unknownPurchase.length} purchase(s) unknown (1 cut off by the test) bought anew by the operator, all completed ${seconds(Date.now() - retryBegan)} after it with 1 report each, in ${seconds(Date.now() - began)}`,
  );
}, 400_000);
