/** Affordability and income-and-employer insights (spec §4.7; requests assumed). */
import {
  affordabilityInsightSchema,
  affordabilityTransactionsSchema,
  incomeEmployerResultSchema,
  insightRequestAcceptedSchema,
  type InsightRequestAccepted,
} from '../provider';
import type { CaseFileStore } from '../case-file/store';
import {
  spanOf,
  type AffordabilityInsightSummary,
  type IncomeEmployerSummary,
  type TransactionsSummary,
} from '../case-file/summaries';
import { idempotencyKeyFor } from './activityCall';
import { caseFileAttempt, caseFileRef } from './caseFileAttempt';
import type { ProviderClient } from './providerClient';
import { readAfterEvent } from './readAfterEvent';
import { routes } from './routes';

/** A read of the case's insight; `caseId` names the case when the workflow passes it. */
export interface InsightReadInput {
  link: string;
  caseId?: string;
}

export function createInsightActivities(client: ProviderClient, caseFile: CaseFileStore) {
  return {
    async requestAffordabilityInsight(input: {
      caseId: string;
      idempotencyKey?: string;
    }): Promise<InsightRequestAccepted> {
      return client.call({
        route: routes.requestAffordabilityInsight,
        params: { caseId: input.caseId },
        body: {},
        schema: insightRequestAcceptedSchema,
        idempotencyKey: idempotencyKeyFor(input.idempotencyKey),
      });
    },

    async getAffordabilityInsight(input: InsightReadInput): Promise<AffordabilityInsightSummary> {
      const insight = await readAfterEvent(() =>
        client.follow({ link: input.link, schema: affordabilityInsightSchema }),
      );
      const at = caseFileAttempt(input.caseId);
      await caseFile.writeAffordabilityInsight(at, insight);
      const { request_id, status, currency, monthly_income, monthly_expenditure, monthly_disposable_income } = insight;
      return {
        case_file: caseFileRef(at, 'affordability_insight', request_id),
        request_id,
        status,
        currency,
        monthly_income,
        monthly_expenditure,
        monthly_disposable_income,
      };
    },

    /** The insight's transactions go to the case file; the history gets their count and dates. */
    async getAffordabilityInsightTransactions(input: InsightReadInput): Promise<TransactionsSummary> {
      const read = await readAfterEvent(() =>
        client.follow({ link: input.link, schema: affordabilityTransactionsSchema }),
      );
      const at = caseFileAttempt(input.caseId);
      await caseFile.writeAffordabilityTransactions(at, read);
      return {
        case_file: caseFileRef(at, 'affordability_transactions', read.request_id),
        request_id: read.request_id,
        ...spanOf(read.transactions),
      };
    },

    async requestIncomeEmployerVerification(input: {
      caseId: string;
      idempotencyKey?: string;
    }): Promise<InsightRequestAccepted> {
      return client.call({
        route: routes.requestIncomeEmployer,
        params: { caseId: input.caseId },
        body: {},
        schema: insightRequestAcceptedSchema,
        idempotencyKey: idempotencyKeyFor(input.idempotencyKey),
      });
    },

    /** `link` is the `verification_endpoint`: present even on failure, with the detail (§6.6 rule 5). */
    async getIncomeEmployerResult(input: InsightReadInput): Promise<IncomeEmployerSummary> {
      const result = await readAfterEvent(() =>
        client.follow({ link: input.link, schema: incomeEmployerResultSchema }),
      );
      const at = caseFileAttempt(input.caseId);
      await caseFile.writeIncomeEmployerResult(at, result);
      const { request_id, status, message, employer_name, annual_income, currency, failure_detail } = result;
      return {
        case_file: caseFileRef(at, 'income_employer_result', request_id),
        request_id,
        status,
        message,
        employer_name,
        annual_income,
        currency,
        failure_detail,
      };
    },
  };
}
