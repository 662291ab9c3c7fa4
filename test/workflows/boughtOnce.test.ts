/**
 * Bought once per need from a provider that promises no idempotency: the simulator as the spec
 * has it (the `Idempotency-Key` header ignored) loses the answers of creating calls after it made
 * what they asked for. The simulator's ledger shows one purchase per journey of every kind; each
 * is in its case's purchase ledger (the case file's evidence), and no case holds another's. A
 * credit report whose answer was lost cannot be found (no list, no webhook): its step waits for an
 * operator, "purchase outcome unknown since …", and nothing is bought twice.
 *
 * The applicant connects their bank through whatever link reached them: for a connection whose
 * answer was lost, the provider's (the simulator's ledger stands in for it), and the step finds
 * the connection by the webhook that names the case.
 */
import { startStack, type Stack } from '../../cli/stack';
import { waitForStatus } from '../../cli/watchStatus';
import { journeyStatusQuery, type JourneyStatus } from '../../client/journeyMessages';
import type { WorkflowHandle } from '@temporalio/client';
import { testDirectory, testTemporalConfig, testWorkflowBundle, testCaseFileOption } from '../setup/testEnvironment';
import { simulatorControl } from '../support/faultHarness/rawProviderApi';
import { startOnboardCase } from '../support/startOnboardCase';
import { storedDocument } from '../support/storedDocument';
import { playApplicant } from '../support/applicantPlayer';
import { waitUntil } from '../support/waitUntil';

const JOURNEYS = 6;
/** Of the six calls of each kind, this many lose their answer after the provider made the thing. */
const LOST_PER_KIND = 2;
const creatingPaths = [
  '/v2/company-credit-reports',
  '/v2/persons/:personId/identity-verifications',
  '/v2/documents',
  '/v2/cases/:caseId/open-banking-connections',
  '/v2/cases/:caseId/affordability-insights',
  '/v2/cases/:caseId/income-employer',
];

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({
    temporal: testTemporalConfig(),
    caseFile: testCaseFileOption(),
    workflowBundle: testWorkflowBundle(),
    simulatorSeed: 3232,
    spoolDir: testDirectory('spool'),
    processingDelayMs: 20,
  });
});
afterAll(async () => {
  await stack?.stop();
});

const control = (path: string, body?: unknown, method?: string) =>
  simulatorControl(stack.simulator)(path, body, method);

interface Applicant {
  caseId: string;
  companyId: string;
  personId: string;
}

async function newApplicant(n: number, personId?: string): Promise<Applicant> {
  const caseId = (await control('/cases', { income_employer_outcome: 'Complete' })).case_id as string;
  const company = await control('/companies', {
    company_name: `Bought Once ${n} Ltd`,
    company_number: `BO${String(n).padStart(6, '0')}`,
    country_code: 'GB',
  });
  const person = personId ?? ((await control('/persons', {})).person_id as string);
  return { caseId, companyId: company.company_id as string, personId: person };
}

function start(a: Applicant, steps: Record<string, unknown>) {
  return startOnboardCase(stack.client, {
    workflowId: `case/${a.caseId}`,
    taskQueue: stack.temporal.taskQueue,
    args: [
      {
        caseId: a.caseId,
        company: { company_id: a.companyId, country_code: 'GB' },
        people: [{ personId: a.personId }],
        steps,
        deadlines: {
          identityVerification: '3 minutes',
          banking: '3 minutes',
          documents: '3 minutes',
          affordability: '3 minutes',
          incomeEmployer: '3 minutes',
          reconcileAfter: '5 seconds',
        },
      },
    ],
  });
}

/** Purchases per kind in the simulator's ledger, for these applicants. */
async function simulatorPurchases(applicants: Applicant[]) {
  const counts = {
    creditReports: 0,
    identityVerifications: 0,
    openBanking: 0,
    documents: 0,
    affordability: 0,
    incomeEmployer: 0,
  };
  const resources: { caseId: string; id: string }[] = [];
  for (const a of applicants) {
    const byCase = await control(`/ledger?case_id=${a.caseId}`);
    const byCompany = await control(`/ledger?company_id=${a.companyId}`);
    counts.creditReports += byCompany.creditReports.length;
    counts.openBanking += byCase.openBankingConnections.length;
    counts.documents += byCase.documents.length;
    counts.affordability += byCase.affordabilityInsights.length;
    counts.incomeEmployer += byCase.incomeEmployerRequests.length;
    const ids = (list: Record<string, string>[], field: string) =>
      list.map((r) => ({ caseId: a.caseId, id: String(r[field]).toLowerCase() }));
    resources.push(
      ...ids(byCompany.creditReports, 'report_id'),
      ...ids(byCase.openBankingConnections, 'bank_connection_id'),
      ...ids(byCase.documents, 'document_id'),
      ...ids(byCase.affordabilityInsights, 'request_id'),
      ...ids(byCase.incomeEmployerRequests, 'request_id'),
    );
  }
  const people = [...new Set(applicants.map((a) => a.personId))];
  for (const personId of people) {
    const byPerson = (await control(`/ledger?person_id=${personId}`)).identityVerifications as {
      request_id: string;
      idempotency_key: string;
    }[];
    counts.identityVerifications += byPerson.length;
    // The key names the case that made it (the simulator keeps it, and ignores it).
    for (const r of byPerson)
      resources.push({ caseId: r.idempotency_key.split('/')[1] as string, id: r.request_id.toLowerCase() });
  }
  return { counts, resources };
}

/** Every resource the provider made is in its own case's purchase ledger, and in no other. */
async function everyPurchaseInItsLedger(resources: { caseId: string; id: string }[], caseIds: string[]) {
  const held = new Map<string, string>();
  for (const caseId of caseIds) {
    for (const p of (await stack.caseFile.evidence(caseId)).purchases) {
      if (!p.provider_id) continue;
      expect(held.get(p.provider_id.toLowerCase())).toBeUndefined();
      held.set(p.provider_id.toLowerCase(), caseId);
    }
  }
  // A credit report whose answer was lost is in its case's ledger as unknown, not with an id.
  const unknown = new Set<string>();
  for (const caseId of caseIds)
    for (const p of (await stack.caseFile.evidence(caseId)).purchases) if (p.state === 'unknown') unknown.add(caseId);
  for (const r of resources) {
    if (held.has(r.id)) expect({ id: r.id, caseId: held.get(r.id) }).toEqual({ id: r.id, caseId: r.caseId });
    else expect({ id: r.id, unknownIn: unknown.has(r.caseId) }).toEqual({ id: r.id, unknownIn: true });
  }
}

// The table, row by row: a provider that honours the keys (the simulator's opt-in for
// comparison) and one that ignores them (the spec's, the simulator's default).
test.each([
  ['honoured', 0],
  ['ignored', JOURNEYS],
] as const)(
  `${JOURNEYS} journeys, answers lost after processing, keys %s: one purchase per journey of every kind`,
  async (mode, first) => {
    await control('/idempotency-keys', { mode }, 'PUT');
    const lostBefore = stack.simulator.store.requests.filter((r) => r.response_lost).length;
    const applicants = [];
    for (let n = first; n < first + JOURNEYS; n++) applicants.push(await newApplicant(n));
    for (const path of creatingPaths)
      await control('/faults', { method: 'POST', path, creation_answer_lost: true, times: LOST_PER_KIND });
    const handles: WorkflowHandle[] = [];
    for (const a of applicants)
      handles.push(
        await start(a, {
          creditReport: true,
          identityVerification: true,
          banking: 'open_banking',
          documents: [await storedDocument(stack.caseFile, a.caseId, 'payslip.pdf', 'PAYSLIP')],
          affordability: true,
          incomeEmployer: true,
        }),
      );
    const outcomes = await Promise.all(applicants.map((a, n) => playApplicant(control, stack.client, a, handles[n]!)));
    const lost = stack.simulator.store.requests.filter((r) => r.response_lost).length - lostBefore;
    expect(lost).toBe(LOST_PER_KIND * creatingPaths.length);

    const { counts, resources } = await simulatorPurchases(applicants);
    expect(counts).toEqual({
      creditReports: JOURNEYS,
      identityVerifications: JOURNEYS,
      openBanking: JOURNEYS,
      documents: JOURNEYS,
      affordability: JOURNEYS,
      incomeEmployer: JOURNEYS,
    });
    await everyPurchaseInItsLedger(
      resources,
      applicants.map((a) => a.caseId),
    );
    // Only the credit reports whose answers were lost wait for an operator; everything else completed.
    const unsettled = outcomes.flatMap((o) =>
      Object.entries(o.steps)
        .filter(([, s]) => s.state !== 'completed')
        .map(([key, s]) => [key, s.state, s.reason]),
    );
    expect(unsettled).toHaveLength(LOST_PER_KIND);
    for (const [key, state, reason] of unsettled) {
      expect(key).toBe('credit-report');
      expect(state).toBe('needs_attention');
      expect(reason).toMatch(/purchase outcome unknown since \d{4}-\d\d-\d\dT.*: the provider may have created it/);
    }
  },
  400_000,
);

test('two cases for one person: two requests, two links, each step completes on its own', async () => {
  const first = await newApplicant(100);
  const second = await newApplicant(101, first.personId);
  const idv = `identity-verification/${first.personId}`;
  const [one, two] = [
    await start(first, { identityVerification: true }),
    await start(second, { identityVerification: true }),
  ];
  const waiting = (s: JourneyStatus) =>
    s.steps[idv]?.state === 'waiting' && Boolean(s.steps[idv]?.providerIds.request_id);
  const [a, b] = await Promise.all([
    waitForStatus(one, journeyStatusQuery, waiting, 60_000),
    waitForStatus(two, journeyStatusQuery, waiting, 60_000),
  ]);
  const [requestA, requestB] = [a.steps[idv]!.providerIds.request_id, b.steps[idv]!.providerIds.request_id];
  expect(requestA).not.toBe(requestB);
  expect(a.steps[idv]!.links?.identity_link).not.toBe(b.steps[idv]!.links?.identity_link);
  const listed = (await control(`/ledger?person_id=${first.personId}`)).identityVerifications;
  expect(listed).toHaveLength(2);
  // Each completes on its own: the second case's applicant acts first, the first case still waits.
  await control(`/identity-verifications/${requestB}/complete`, { verification_status: 'Approved' });
  expect((await two.result()).state).toBe('completed');
  expect((await one.query(journeyStatusQuery)).steps[idv]!.state).toBe('waiting');
  await control(`/identity-verifications/${requestA}/complete`, { verification_status: 'Approved' });
  expect((await one.result()).state).toBe('completed');
  await waitUntil('both ledgers hold their own request', async () => {
    const held = async (caseId: string) => (await stack.caseFile.purchases(caseId)).map((p) => p.provider_id);
    return (await held(first.caseId)).includes(requestA!) && (await held(second.caseId)).includes(requestB!);
  });
}, 120_000);
