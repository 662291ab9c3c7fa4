/** Affordability and income-and-employer insights (spec §4.7; requests assumed). */
import {
  affordabilityInsightSchema,
  affordabilityTransactionsSchema,
  incomeEmployerResultSchema,
  insightRequestAcceptedSchema,
  type AffordabilityInsight,
  type AffordabilityTransactions,
  type IncomeEmployerResult,
  type InsightRequestAccepted,
} from '../provider';
import { activityIdempotencyKey } from './activityCall';
import type { ProviderClient } from './providerClient';
import { readAfterEvent } from './readAfterEvent';
import { routes } from './routes';

export function createInsightActivities(client: ProviderClient) {
  return {
    async requestAffordabilityInsight(input: { caseId: string }): Promise<InsightRequestAccepted> {
      return client.call({ route: routes.requestAffordabilityInsight, params: { caseId: input.caseId }, body: {}, schema: insightRequestAcceptedSchema, idempotencyKey: activityIdempotencyKey() });
    },

    async getAffordabilityInsight(input: { link: string }): Promise<AffordabilityInsight> {
      return readAfterEvent(() => client.follow({ link: input.link, schema: affordabilityInsightSchema }));
    },

    async getAffordabilityInsightTransactions(input: { link: string }): Promise<AffordabilityTransactions> {
      return readAfterEvent(() => client.follow({ link: input.link, schema: affordabilityTransactionsSchema }));
    },

    async requestIncomeEmployerVerification(input: { caseId: string }): Promise<InsightRequestAccepted> {
      return client.call({ route: routes.requestIncomeEmployer, params: { caseId: input.caseId }, body: {}, schema: insightRequestAcceptedSchema, idempotencyKey: activityIdempotencyKey() });
    },

    /** `link` is the `verification_endpoint`: present even on failure, with the detail (§6.6 rule 5). */
    async getIncomeEmployerResult(input: { link: string }): Promise<IncomeEmployerResult> {
      return readAfterEvent(() => client.follow({ link: input.link, schema: incomeEmployerResultSchema }));
    },
  };
}
