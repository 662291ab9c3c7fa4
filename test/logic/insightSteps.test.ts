/**
 * The insight steps' decisions, with the provider's answers stubbed and their events signalled as
 * the resource workflows would: an income-and-employer result that failed needs attention with its
 * detail, and each insight with no outcome expires at its deadline, naming its request.
 */
import { randomUUID } from 'node:crypto';
import type { Duration } from '@temporalio/common';
import { waitForStatus } from '../../cli/watchStatus';
import { stepStatusQuery } from '../../client/stepMessages';
import { affordabilityWorkflow } from '../../workflows/affordabilityWorkflow';
import { incomeEmployerWorkflow } from '../../workflows/incomeEmployerWorkflow';
import { startJourneyLogic, type JourneyLogic } from '../support/journeyLogic';

let logic: JourneyLogic;
beforeAll(async () => {
  logic = await startJourneyLogic({
    requestAffordabilityInsightAndSubscribe: async ({ caseId }) => ({
      request_id: `afford-${caseId}`,
      status: 'Pending',
    }),
    requestIncomeEmployerVerificationAndSubscribe: async ({ caseId }) => ({
      request_id: `income-${caseId}`,
      status: 'Pending',
    }),
    getIncomeEmployerResult: async ({ caseId }) => ({
      case_file: null,
      request_id: `income-${caseId}`,
      status: 'Failed',
      employer_name: null,
      annual_income: null,
      currency: 'GBP',
      message: 'Income could not be verified',
      failure_detail: 'no salary payments found in the transactions',
    }),
  });
});
afterAll(async () => {
  await logic?.stop();
});

const start = (workflow: typeof affordabilityWorkflow | typeof incomeEmployerWorkflow, deadline: Duration) => {
  const caseId = randomUUID();
  return logic.env.client.workflow.start(workflow, {
    workflowId: `insight/${caseId}`,
    taskQueue: logic.taskQueue,
    args: [{ caseId, deadline, reconcileAfter: '1 hour' }],
  });
};

test('an income-and-employer result that failed needs attention, with the failure detail', async () => {
  const step = await start(incomeEmployerWorkflow, '20 seconds');
  const waiting = await waitForStatus(step, stepStatusQuery, (s) => s.state === 'waiting');
  const requestId = waiting.providerIds.request_id!;
  await logic.deliver(step.workflowId, { kind: 'income-employer', id: requestId }, 'IncomeEmployerInsights.Completed', {
    entity_type: 'case',
    entity_id: 'case',
    datetime_requested: new Date().toISOString(),
    datetime_completed: new Date().toISOString(),
    income_and_employer_request: {
      request_id: requestId,
      verification_endpoint: `https://provider.example/income-employer/${requestId}`,
    },
  });
  expect(await step.result()).toMatchObject({
    state: 'needs_attention',
    detail: { failure_detail: 'no salary payments found in the transactions' },
  });
});

test.each([
  ['affordability', affordabilityWorkflow, 'the affordability insight was not ready'],
  ['income-employer', incomeEmployerWorkflow, 'income and employer were not verified'],
] as const)('%s expires at its deadline when no outcome comes', async (_which, workflow, reason) => {
  const step = await start(workflow, '1 second');
  expect(await step.result()).toMatchObject({
    state: 'expired',
    reason: expect.stringContaining(reason),
    providerIds: { request_id: expect.any(String) },
  });
});
