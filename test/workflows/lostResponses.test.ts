/**
 * Provider side effects happen once per attempt, whatever is lost on the way back: with 30% of the
 * answers of every creating call destroyed after the provider processed the request, 20 whole
 * journeys complete and the simulator's ledger shows exactly one resource per case and attempt.
 */
import { startStack, type Stack } from '../../cli/stack';
import { waitForStatus } from '../../cli/watchStatus';
import { journeyStatusQuery, type JourneyStatus } from '../../client/journeyMessages';
import { testDirectory, testTemporalConfig, testWorkflowBundle, testCaseFileOption } from '../setup/testEnvironment';
import { simulatorControl } from '../../bench/faultHarness/rawProviderApi';
import { startOnboardCase } from '../support/startOnboardCase';
import { storedDocument } from '../support/storedDocument';

const JOURNEYS = 20;
const creatingRoutes = [
  'POST /v2/company-credit-reports',
  'POST /v2/company-credit-reports/picklist',
  'POST /v2/persons/:personId/identity-verifications',
  'POST /v2/documents',
  'POST /v2/cases/:caseId/open-banking-connections',
  'POST /v2/cases/:caseId/affordability-insights',
  'POST /v2/cases/:caseId/income-employer',
];

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({
    temporal: testTemporalConfig(),
    caseFile: testCaseFileOption(),
    workflowBundle: testWorkflowBundle(),
    simulatorSeed: 3030,
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
  ambiguous: boolean;
}

async function newApplicant(n: number): Promise<Applicant> {
  const caseId = (await control('/cases', { income_employer_outcome: 'Complete' })).case_id as string;
  // Every fourth company is ambiguous: its report needs a picklist resolution (by the automatic rule).
  const ambiguous = n % 4 === 0;
  const company = await control('/companies', {
    company_name: `Lost Answers ${n} Ltd`,
    company_number: `LA${String(n).padStart(6, '0')}`,
    country_code: 'GB',
    registry_copies: ambiguous ? 2 : 1,
  });
  const personId = (await control('/persons', {})).person_id as string;
  return { caseId, companyId: company.company_id as string, personId, ambiguous };
}

async function journey(a: Applicant, n: number): Promise<JourneyStatus> {
  const handle = await startOnboardCase(stack.client, {
    workflowId: `case/${a.caseId}`,
    taskQueue: stack.temporal.taskQueue,
    args: [
      {
        caseId: a.caseId,
        company: { company_id: a.companyId, company_name: `Lost Answers ${n} Ltd`, country_code: 'GB' },
        automaticPicklistRule: true,
        people: [{ personId: a.personId }],
        steps: {
          creditReport: true,
          identityVerification: true,
          banking: 'open_banking',
          documents: [await storedDocument(stack.caseFile, a.caseId, 'payslip.pdf', 'PAYSLIP')],
          affordability: true,
          incomeEmployer: true,
        },
        deadlines: {
          identityVerification: '2 minutes',
          banking: '2 minutes',
          documents: '2 minutes',
          affordability: '2 minutes',
          incomeEmployer: '2 minutes',
          reconcileAfter: '5 seconds',
        },
      },
    ],
  });
  // The applicant acts as soon as asked (a step also shows `waiting` while a lost answer is retried:
  // the provider unavailable; the applicant is asked once the step holds its link).
  const idv = `identity-verification/${a.personId}`;
  const asked = (step: { state: string; providerIds: Record<string, string> } | undefined, id: string) =>
    step?.state === 'waiting' && Boolean(step.providerIds[id]);
  const waiting = await waitForStatus(
    handle,
    journeyStatusQuery,
    (s) => asked(s.steps[idv], 'request_id') && asked(s.steps.banking, 'bank_connection_id'),
    120_000,
  );
  await control(`/identity-verifications/${waiting.steps[idv]!.providerIds.request_id}/complete`, {
    verification_status: 'Approved',
  });
  await control(`/open-banking-connections/${waiting.steps.banking!.providerIds.bank_connection_id}/complete`, {
    status: 'Connected',
    accounts: 1,
  });
  return handle.result();
}

test(`with 30% of creating calls' answers lost, ${JOURNEYS} journeys complete and the ledger shows one resource per case and attempt`, async () => {
  const applicants = await Promise.all(Array.from({ length: JOURNEYS }, (_, n) => newApplicant(n)));
  await control('/fault-rates', { response_lost_rate: 0.3, response_lost_routes: creatingRoutes }, 'PUT');
  const outcomes = await Promise.all(applicants.map((a, n) => journey(a, n)));
  await control('/fault-rates', {}, 'PUT');

  expect(outcomes.map((o) => o.state)).toEqual(applicants.map(() => 'completed'));
  const lost = stack.simulator.store.requests.filter((r) => (r as { response_lost?: boolean }).response_lost);
  // The fault really fired on creating calls (about 30% of 125 of them).
  expect(lost.length).toBeGreaterThan(15);

  for (const a of applicants) {
    const byCase = await control(`/ledger?case_id=${a.caseId}`);
    const byCompany = await control(`/ledger?company_id=${a.companyId}`);
    const byPerson = await control(`/ledger?person_id=${a.personId}`);
    expect({
      creditReports: byCompany.creditReports.length,
      picklistResolutions: byCompany.creditReports.map((r: { picklist_resolutions: number }) => r.picklist_resolutions),
      identityVerifications: byPerson.identityVerifications.length,
      connections: byCase.openBankingConnections.length,
      documents: byCase.documents.length,
      affordability: byCase.affordabilityInsights.length,
      incomeEmployer: byCase.incomeEmployerRequests.length,
    }).toEqual({
      creditReports: 1,
      picklistResolutions: [a.ambiguous ? 1 : 0],
      identityVerifications: 1,
      connections: 1,
      documents: 1,
      affordability: 1,
      incomeEmployer: 1,
    });
  }
}, 300_000);
