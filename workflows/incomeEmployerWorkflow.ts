/**
 * Income-and-employer verification for a case (spec §4.7, §6.6 rule 5): request, wait under a
 * deadline, read the verification endpoint, which holds the detail even on failure.
 */
import type { Duration } from '@temporalio/common';
import { path, routes } from '../activities/routes';
import type { IncomeEmployerResult } from '../provider';
import { requestAndAwaitResult } from './awaitProviderResult';
import { sentData } from './deliveryData';
import { defaultDeadlines } from '../client/deadlines';
import { providerActivities } from './providerActivities';
import { failingOnProviderError } from './providerFailure';
import type { ResourceInboxes } from './resourceInbox';
import { keyed } from './purchase';
import { trackStep } from './stepStatus';
import type { StepStatus } from '../client/stepMessages';

export interface IncomeEmployerInput {
  caseId: string;
  deadline?: Duration;
  reconcileAfter?: Duration;
  /** The longest wait between two polls that find nothing (deadlines.ts). */
  reconcileBackoffCap?: Duration;
  stepKey?: string;
  /** The need's key (purchase.ts). */
  purchase?: string;
  /** An operator asked for this need to buy anew (purchase.ts). */
  fresh?: boolean;
  /** How long each provider call is retried before the step fails. */
  callBudget?: Duration;
}

export type IncomeEmployerDetail = Pick<
  IncomeEmployerResult,
  'employer_name' | 'annual_income' | 'currency' | 'message' | 'failure_detail'
>;
export type IncomeEmployerStatus = StepStatus<IncomeEmployerDetail>;

export async function incomeEmployerWorkflow(input: IncomeEmployerInput): Promise<IncomeEmployerStatus> {
  const tracker = trackStep<IncomeEmployerDetail>(input.stepKey);
  return failingOnProviderError(tracker, (inboxes) => verifyIncomeEmployer(input, tracker, inboxes));
}

async function verifyIncomeEmployer(
  input: IncomeEmployerInput,
  { update, finish, spend, providerAnswered }: ReturnType<typeof trackStep<IncomeEmployerDetail>>,
  inboxes: ResourceInboxes,
): Promise<IncomeEmployerStatus> {
  const provider = providerActivities(input.callBudget, providerAnswered);
  const deadline = input.deadline ?? defaultDeadlines.incomeEmployer;
  const { found } = await requestAndAwaitResult<{ link: string; completedAt: string | null }>({
    kind: 'income-employer',
    request: async (subscription) =>
      (
        await provider.requestIncomeEmployerVerificationAndSubscribe({
          caseId: input.caseId,
          subscription,
          ...keyed(input, 'request'),
        })
      ).request_id,
    locate: (delivery, requestId) => {
      // A polled record carries no completion time: the journey then measures from when it read it.
      if (delivery.parse === 'polled') return { link: path(routes.incomeEmployer, { requestId }), completedAt: null };
      const data = sentData(delivery, 'IncomeEmployerInsights.Completed');
      return data
        ? { link: data.income_and_employer_request.verification_endpoint, completedAt: data.datetime_completed }
        : undefined;
    },
    deadline,
    reconcileAfter: input.reconcileAfter,
    reconcileBackoffCap: input.reconcileBackoffCap,
    update,
    inboxes,
  });
  if (!found) return finish('expired', `income and employer were not verified within ${String(deadline)}`);

  update({ state: 'running' });
  const result = await provider.getIncomeEmployerResult({ link: found.link, caseId: input.caseId });
  const detail: IncomeEmployerDetail = {
    employer_name: result.employer_name,
    annual_income: result.annual_income,
    currency: result.currency,
    message: result.message,
    failure_detail: result.failure_detail,
  };
  if (result.status === 'Complete') {
    // The verification's validity window runs from when the provider completed it.
    update({ evidenceDate: found.completedAt });
    return finish('completed', null, detail);
  }
  // The provider has answered this request for good: another try asks anew.
  spend();
  return finish(
    'needs_attention',
    `income and employer could not be verified: ${result.failure_detail ?? result.message ?? 'no detail given'}`,
    detail,
  );
}
