/** Credit reports (spec §4.2 rules 1–4, §4.3). */
import {
  creditReportRequestSchema,
  creditReportSchema,
  picklistResolutionSchema,
  TOO_MANY_RESULTS,
  type CreditReport,
  type CreditReportRequest,
  type PicklistResolution,
} from '../provider';
import { ApplicationFailure } from '@temporalio/common';
import { activityIdempotencyKey } from './activityCall';
import type { ProviderClient } from './providerClient';
import { httpFailureType } from './providerFailures';
import { routes } from './routes';
import { validateInput } from './validateInput';

export function createCreditReportActivities(client: ProviderClient) {
  return {
    /** 422 (company lacks number or country, rule 1) fails non-retryably as HTTP_422. */
    async requestCreditReport(input: CreditReportRequest): Promise<CreditReport> {
      const body = validateInput(creditReportRequestSchema, input, 'credit report request');
      return client.call({ route: routes.requestCreditReport, body, schema: creditReportSchema, idempotencyKey: activityIdempotencyKey() });
    },

    /**
     * Find before create: a report already resolved (an earlier attempt whose answer was lost)
     * is read, not resolved again; a 409 is answered by reading the report's current state.
     */
    async resolveCreditReportPicklist(input: PicklistResolution): Promise<CreditReport> {
      const body = validateInput(picklistResolutionSchema, input, 'picklist resolution');
      const current = await client.call({ route: routes.creditReport, params: { reportId: body.report_id }, schema: creditReportSchema });
      if (current.status !== TOO_MANY_RESULTS) return current;
      try {
        return await client.call({ route: routes.resolveCreditReportPicklist, body, schema: creditReportSchema, idempotencyKey: activityIdempotencyKey() });
      } catch (error) {
        if (!(error instanceof ApplicationFailure) || error.type !== httpFailureType(409)) throw error;
        const after = await client.call({ route: routes.creditReport, params: { reportId: body.report_id }, schema: creditReportSchema });
        if (after.status === TOO_MANY_RESULTS) throw error;
        return after;
      }
    },

    async getCreditReport(input: { reportId: string }): Promise<CreditReport> {
      return client.call({ route: routes.creditReport, params: { reportId: input.reportId }, schema: creditReportSchema });
    },
  };
}
