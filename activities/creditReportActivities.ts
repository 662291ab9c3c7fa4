/** Credit reports (spec §4.2 rules 1–4, §4.3). */
import {
  creditReportRequestSchema,
  creditReportSchema,
  picklistResolutionSchema,
  type CreditReport,
  type CreditReportRequest,
  type PicklistResolution,
} from '../provider';
import type { ProviderClient } from './providerClient';
import { routes } from './routes';
import { validateInput } from './validateInput';

export function createCreditReportActivities(client: ProviderClient) {
  return {
    /** 422 (company lacks number or country, rule 1) fails non-retryably as HTTP_422. */
    async requestCreditReport(input: CreditReportRequest): Promise<CreditReport> {
      return client.call({ route: routes.requestCreditReport, body: validateInput(creditReportRequestSchema, input, 'credit report request'), schema: creditReportSchema });
    },

    async resolveCreditReportPicklist(input: PicklistResolution): Promise<CreditReport> {
      return client.call({ route: routes.resolveCreditReportPicklist, body: validateInput(picklistResolutionSchema, input, 'picklist resolution'), schema: creditReportSchema });
    },

    async getCreditReport(input: { reportId: string }): Promise<CreditReport> {
      return client.call({ route: routes.creditReport, params: { reportId: input.reportId }, schema: creditReportSchema });
    },
  };
}
