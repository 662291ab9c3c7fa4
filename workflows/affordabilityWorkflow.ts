/** Affordability insight for a case (spec §4.7, §6.6): request, wait under a deadline, read. */
import type { Duration } from '@temporalio/common';
import { condition } from '@temporalio/workflow';
import { affordabilityInsightsCompletedSchema, type AffordabilityInsight } from '../provider';
import { path, routes } from '../activities/routes';
import { defaultDeadlines } from './deadlines';
import { provider } from './providerActivities';
import { createResourceInbox } from './resourceInbox';
import { trackStep, type StepStatus } from './stepStatus';

export interface AffordabilityInput {
  caseId: string;
  deadline?: Duration;
  reconcileAfter?: Duration;
  stepKey?: string;
}

export type AffordabilityDetail = Pick<AffordabilityInsight, 'monthly_income' | 'monthly_expenditure' | 'monthly_disposable_income' | 'currency'> & { transactions: number };
export type AffordabilityStatus = StepStatus<AffordabilityDetail>;

interface Links {
  insight: string;
  transactions: string;
}

export async function affordabilityWorkflow(input: AffordabilityInput): Promise<AffordabilityStatus> {
  const { update, finish } = trackStep<AffordabilityDetail>(input.stepKey);
  let requestId = '';
  let links: Links | undefined;
  const inbox = createResourceInbox((_r, delivery) => {
    update({ lastEvent: { eventType: delivery.eventType, receivedAt: delivery.receivedAt } });
    if (links) return;
    if (delivery.parse === 'polled') {
      // The provider's record says Complete: the links are the spec's paths (§4.7).
      links = {
        insight: path(routes.affordabilityInsight, { requestId }),
        transactions: path(routes.affordabilityInsightTransactions, { requestId }),
      };
      return;
    }
    const data = affordabilityInsightsCompletedSchema.safeParse(delivery.data);
    if (data.success) links = { insight: data.data.affordability_insight_endpoint, transactions: data.data.affordability_insight_transactions_endpoint };
  });

  requestId = (await provider.requestAffordabilityInsight({ caseId: input.caseId })).request_id;
  update({ state: 'waiting', providerIds: { request_id: requestId } });
  await inbox.subscribe({ kind: 'affordability', id: requestId }, input.reconcileAfter ?? defaultDeadlines.reconcileAfter);

  const deadline = input.deadline ?? defaultDeadlines.affordability;
  if (!(await condition(() => links !== undefined, deadline))) {
    return finish('expired', `the affordability insight was not ready within ${String(deadline)}`);
  }
  update({ state: 'running' });
  const found = links as Links;
  const insight = await provider.getAffordabilityInsight({ link: found.insight });
  const transactions = await provider.getAffordabilityInsightTransactions({ link: found.transactions });
  return finish('completed', null, {
    currency: insight.currency,
    monthly_income: insight.monthly_income,
    monthly_expenditure: insight.monthly_expenditure,
    monthly_disposable_income: insight.monthly_disposable_income,
    transactions: transactions.transactions.length,
  });
}
