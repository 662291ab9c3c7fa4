/** Affordability insight for a case (spec §4.7, §6.6): request, wait under a deadline, read. */
import type { Duration } from '@temporalio/common';
import { path, routes } from '../activities/routes';
import type { AffordabilityInsight } from '../provider';
import { requestAndAwaitResult } from './awaitProviderResult';
import { sentData } from './deliveryData';
import { defaultDeadlines } from '../client/deadlines';
import { providerActivities } from './providerActivities';
import { failingOnProviderError } from './providerFailure';
import type { ResourceInboxes } from './resourceInbox';
import { keyed } from './purchase';
import { trackStep } from './stepStatus';
import type { StepStatus } from '../client/stepMessages';

export interface AffordabilityInput {
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

export type AffordabilityDetail = Pick<
  AffordabilityInsight,
  'monthly_income' | 'monthly_expenditure' | 'monthly_disposable_income' | 'currency'
> & { transactions: number };
export type AffordabilityStatus = StepStatus<AffordabilityDetail>;

interface Links {
  insight: string;
  transactions: string;
}

export async function affordabilityWorkflow(input: AffordabilityInput): Promise<AffordabilityStatus> {
  const tracker = trackStep<AffordabilityDetail>(input.stepKey);
  return failingOnProviderError(tracker, (inboxes) => requestAffordability(input, tracker, inboxes));
}

async function requestAffordability(
  input: AffordabilityInput,
  { update, finish, providerAnswered }: ReturnType<typeof trackStep<AffordabilityDetail>>,
  inboxes: ResourceInboxes,
): Promise<AffordabilityStatus> {
  const provider = providerActivities(input.callBudget, providerAnswered);
  const deadline = input.deadline ?? defaultDeadlines.affordability;
  const { found } = await requestAndAwaitResult<Links>({
    kind: 'affordability',
    request: async (subscription) =>
      (
        await provider.requestAffordabilityInsightAndSubscribe({
          caseId: input.caseId,
          subscription,
          ...keyed(input, 'request'),
        })
      ).request_id,
    locate: (delivery, requestId) => {
      // A polled record says Complete: the links are the spec's paths (§4.7).
      if (delivery.parse === 'polled')
        return {
          insight: path(routes.affordabilityInsight, { requestId }),
          transactions: path(routes.affordabilityInsightTransactions, { requestId }),
        };
      const data = sentData(delivery, 'AffordabilityInsights.Completed');
      return data
        ? {
            insight: data.affordability_insight_endpoint,
            transactions: data.affordability_insight_transactions_endpoint,
          }
        : undefined;
    },
    deadline,
    reconcileAfter: input.reconcileAfter,
    reconcileBackoffCap: input.reconcileBackoffCap,
    update,
    inboxes,
  });
  if (!found) return finish('expired', `the affordability insight was not ready within ${String(deadline)}`);

  update({ state: 'running' });
  // Both reads write to the case file and return summaries; side by side, so that both answers
  // usually come back in one workflow task.
  const [insight, transactions] = await Promise.all([
    provider.getAffordabilityInsight({ link: found.insight, caseId: input.caseId }),
    provider.getAffordabilityInsightTransactions({ link: found.transactions, caseId: input.caseId }),
  ]);
  return finish('completed', null, {
    currency: insight.currency,
    monthly_income: insight.monthly_income,
    monthly_expenditure: insight.monthly_expenditure,
    monthly_disposable_income: insight.monthly_disposable_income,
    transactions: transactions.transactions,
  });
}
