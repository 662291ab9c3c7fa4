/**
 * Income-and-employer verification for a case (spec §4.7, §6.6 rule 5): request, wait under a
 * deadline, read the verification endpoint, which holds the detail even on failure.
 */
import type { Duration } from '@temporalio/common';
import { condition } from '@temporalio/workflow';
import { incomeEmployerInsightsCompletedSchema, type IncomeEmployerResult } from '../provider';
import { path, routes } from '../activities/routes';
import { defaultDeadlines } from './deadlines';
import { provider } from './providerActivities';
import { createResourceInbox } from './resourceInbox';
import { trackStep, type StepStatus } from './stepStatus';

export interface IncomeEmployerInput {
  caseId: string;
  deadline?: Duration;
  reconcileAfter?: Duration;
  stepKey?: string;
}

export type IncomeEmployerDetail = Pick<IncomeEmployerResult, 'employer_name' | 'annual_income' | 'currency' | 'message' | 'failure_detail'>;
export type IncomeEmployerStatus = StepStatus<IncomeEmployerDetail>;

export async function incomeEmployerWorkflow(input: IncomeEmployerInput): Promise<IncomeEmployerStatus> {
  const { update, finish } = trackStep<IncomeEmployerDetail>(input.stepKey);
  let requestId = '';
  let verificationLink: string | undefined;
  const inbox = createResourceInbox((_r, delivery) => {
    update({ lastEvent: { eventType: delivery.eventType, receivedAt: delivery.receivedAt } });
    if (verificationLink) return;
    if (delivery.parse === 'polled') {
      verificationLink = path(routes.incomeEmployer, { requestId });
      return;
    }
    const data = incomeEmployerInsightsCompletedSchema.safeParse(delivery.data);
    if (data.success) verificationLink = data.data.income_and_employer_request.verification_endpoint;
  });

  requestId = (await provider.requestIncomeEmployerVerification({ caseId: input.caseId })).request_id;
  update({ state: 'waiting', providerIds: { request_id: requestId } });
  await inbox.subscribe({ kind: 'income-employer', id: requestId }, input.reconcileAfter ?? defaultDeadlines.reconcileAfter);

  const deadline = input.deadline ?? defaultDeadlines.incomeEmployer;
  if (!(await condition(() => verificationLink !== undefined, deadline))) {
    return finish('expired', `income and employer were not verified within ${String(deadline)}`);
  }
  update({ state: 'running' });
  const result = await provider.getIncomeEmployerResult({ link: verificationLink as string });
  const detail: IncomeEmployerDetail = {
    employer_name: result.employer_name,
    annual_income: result.annual_income,
    currency: result.currency,
    message: result.message,
    failure_detail: result.failure_detail,
  };
  if (result.status === 'Complete') return finish('completed', null, detail);
  return finish('needs_attention', `income and employer could not be verified: ${result.failure_detail ?? result.message ?? 'no detail given'}`, detail);
}
