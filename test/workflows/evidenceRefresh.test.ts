/**
 * `journey refresh` on the real stack: a completed journey (credit report, IDV, banking) has its
 * credit report and bank transactions renewed on demand. The new run buys exactly one new credit
 * report and one new bank connection, sends the person no new IDV request, carries the IDV over,
 * and completes. Renewing the bank transactions renews the affordability computed from them.
 */
import { startStack, type Stack } from '../../cli/stack';
import { journeyProgram, type Outcome, type Run } from '../../cli/journeyProgram';
import { testDirectory, testTemporalConfig, testWorkflowBundle, testCaseFileOption } from '../setup/testEnvironment';
import { simulatorControl } from '../support/faultHarness/rawProviderApi';
import { startOnboardCase } from '../support/startOnboardCase';
import { playApplicant } from '../support/applicantPlayer';
import { caseApiClient } from '../support/caseApiClient';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({
    temporal: testTemporalConfig(),
    caseFile: testCaseFileOption(),
    workflowBundle: testWorkflowBundle(),
    simulatorSeed: 3472,
    spoolDir: testDirectory('spool'),
    processingDelayMs: 20,
  });
});
afterAll(async () => {
  await stack?.stop();
});

const control = (path: string, body?: unknown, method?: string) =>
  simulatorControl(stack.simulator)(path, body, method);

/** `journey <args> --json` through the CLI's own code, on the stack's client and case file. */
async function journey(...args: string[]): Promise<Outcome> {
  let run: Run | undefined;
  journeyProgram((chosen) => (run = chosen)).parse(['--json', ...args], { from: 'user' });
  return (run as Run)(
    { client: stack.client, taskQueue: stack.temporal.taskQueue, caseFile: async () => stack.caseFile },
    { json: true, print: () => undefined, progress: () => undefined },
  );
}

/** What the simulator made for the case: credit reports, bank connections, IDV requests. */
async function made(caseId: string, companyId: string, personId: string) {
  const byCase = await control(`/ledger?case_id=${caseId}`);
  const byCompany = await control(`/ledger?company_id=${companyId}`);
  const byPerson = await control(`/ledger?person_id=${personId}`);
  return {
    creditReports: (byCompany.creditReports as unknown[]).length,
    bankConnections: (byCase.openBankingConnections as unknown[]).length,
    idvRequests: (byPerson.identityVerifications as unknown[]).length,
  };
}

test('refresh of creditReport and bankTransactions buys one new credit report and one new bank connection, no new IDV request, and the new run completes', async () => {
  const caseId = (await control('/cases', {})).case_id as string;
  const company = await control('/companies', {
    company_name: 'Renewed Evidence Ltd',
    company_number: 'RE000001',
    country_code: 'GB',
  });
  const companyId = company.company_id as string;
  const personId = (await control('/persons', {})).person_id as string;
  const handle = await startOnboardCase(stack.client, {
    workflowId: `case/${caseId}`,
    taskQueue: stack.temporal.taskQueue,
    args: [
      {
        caseId,
        company: { company_id: companyId, country_code: 'GB' },
        people: [{ personId }],
        steps: { creditReport: true, identityVerification: true, banking: 'open_banking' },
        deadlines: { identityVerification: '3 minutes', banking: '3 minutes', reconcileAfter: '5 seconds' },
      },
    ],
  });
  const first = await playApplicant(control, stack.client, { caseId, personId }, handle);
  expect(first.state).toBe('completed');
  await handle.result();
  expect(await made(caseId, companyId, personId)).toEqual({ creditReports: 1, bankConnections: 1, idvRequests: 1 });

  const dryRun = await journey('refresh', caseId, 'creditReport', 'bankTransactions', '--reason', 'annual review');
  expect(dryRun.json).toMatchObject({ dryRun: true });
  expect(await made(caseId, companyId, personId)).toEqual({ creditReports: 1, bankConnections: 1, idvRequests: 1 });

  const refreshed = await journey(
    'refresh',
    caseId,
    'creditReport',
    'bankTransactions',
    '--reason',
    'annual review',
    '--yes',
  );
  expect(refreshed.failed).toBeFalsy();
  expect(refreshed.json).toEqual({
    caseId,
    items: ['creditReport', 'bankTransactions'],
    renewed: [
      { step: 'credit-report', kind: 'creditReport', need: 2 },
      { step: 'banking', kind: 'bankTransactions', need: 2 },
    ],
    carriedOver: [`identity-verification/${personId}`],
    runId: expect.any(String),
  });

  const latest = stack.client.workflow.getHandle(`case/${caseId}`);
  const second = await playApplicant(control, stack.client, { caseId, personId }, latest);
  expect(second.state).toBe('completed');
  await latest.result();
  expect(second.steps[`identity-verification/${personId}`]?.attempts).toEqual([
    expect.objectContaining({ carriedOver: true, state: 'completed' }),
  ]);
  expect(second.steps['credit-report']).toMatchObject({ state: 'completed', need: 2 });
  expect(second.steps.banking).toMatchObject({ state: 'completed', need: 2 });
  expect(await made(caseId, companyId, personId)).toEqual({ creditReports: 2, bankConnections: 2, idvRequests: 1 });
});

test('refresh of bankTransactions renews affordability with it, as the journey does when banking runs again; the credit report is carried over', async () => {
  const caseId = (await control('/cases', {})).case_id as string;
  const company = await control('/companies', {
    company_name: 'Renewed Banking Ltd',
    company_number: 'RE000002',
    country_code: 'GB',
  });
  const companyId = company.company_id as string;
  const personId = (await control('/persons', {})).person_id as string;
  const handle = await startOnboardCase(stack.client, {
    workflowId: `case/${caseId}`,
    taskQueue: stack.temporal.taskQueue,
    args: [
      {
        caseId,
        company: { company_id: companyId, country_code: 'GB' },
        people: [{ personId }],
        steps: { creditReport: true, banking: 'open_banking', affordability: true },
        deadlines: { banking: '3 minutes', affordability: '3 minutes', reconcileAfter: '5 seconds' },
      },
    ],
  });
  expect((await playApplicant(control, stack.client, { caseId, personId }, handle)).state).toBe('completed');
  await handle.result();

  const api = caseApiClient(stack.caseApi.url);
  const refreshed = await api('POST', `/v1/cases/${caseId}/refresh`, {
    key: stack.caseApiKeys!.operator,
    body: { items: ['bankTransactions'], reason: 'transactions older than the lender takes' },
  });
  expect(refreshed).toMatchObject({
    status: 202,
    body: {
      renewed: [
        { step: 'banking', kind: 'bankTransactions', need: 2 },
        { step: 'affordability', kind: 'affordability', need: 2, because: 'banking is renewed' },
      ],
      carriedOver: ['credit-report'],
    },
  });
  const latest = stack.client.workflow.getHandle(`case/${caseId}`);
  expect((await playApplicant(control, stack.client, { caseId, personId }, latest)).state).toBe('completed');
  await latest.result();
  const byCase = await control(`/ledger?case_id=${caseId}`);
  expect({
    creditReports: ((await control(`/ledger?company_id=${companyId}`)).creditReports as unknown[]).length,
    bankConnections: (byCase.openBankingConnections as unknown[]).length,
    affordability: (byCase.affordabilityInsights as unknown[]).length,
  }).toEqual({ creditReports: 1, bankConnections: 2, affordability: 2 });
});
