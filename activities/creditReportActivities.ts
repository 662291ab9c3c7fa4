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
import type { CaseFileStore } from '../case-file/store';
import { summariseCreditReport, type CreditReportSummary } from '../case-file/summaries';
import { idempotencyKeyFor } from './activityCall';
import { caseFileAttempt, caseFileRef } from './caseFileAttempt';
import type { ProviderClient } from './providerClient';
import { httpFailureType } from './providerFailures';
import { routes } from './routes';
import { validateInput } from './validateInput';

/**
 * `caseId` names the case; `idempotencyKey` is the purchase's key (client/purchaseKey.ts), when the
 * workflow gives one.
 */
type WithCase<T> = T & { caseId?: string; idempotencyKey?: string };

export function createCreditReportActivities(client: ProviderClient, caseFile: CaseFileStore) {
  /** Every report read goes to the case file; the history gets the summary. */
  const recorded = async (report: CreditReport, caseId: string | undefined): Promise<CreditReportSummary> => {
    const at = caseFileAttempt(caseId);
    await caseFile.writeCreditReport(at, report);
    return summariseCreditReport(report, caseFileRef(at, 'credit_report', report.report_id));
  };
  return {
    /** 422 (company lacks number or country, rule 1) fails non-retryably as HTTP_422. */
    async requestCreditReport(input: WithCase<CreditReportRequest>): Promise<CreditReportSummary> {
      const { caseId, idempotencyKey, ...request } = input;
      const body = validateInput(creditReportRequestSchema, request, 'credit report request');
      return recorded(
        await client.call({
          route: routes.requestCreditReport,
          body,
          schema: creditReportSchema,
          idempotencyKey: idempotencyKeyFor(idempotencyKey),
        }),
        caseId,
      );
    },

    async resolveCreditReportPicklist(input: WithCase<PicklistResolution>): Promise<CreditReportSummary> {
      const { caseId, idempotencyKey, ...resolution } = input;
      return recorded(await resolvePicklist(resolution, idempotencyKey), caseId);
    },

    /** A report the need already holds (an earlier attempt bought it): read, recorded, never bought again. */
    async readCreditReport(input: { reportId: string; caseId?: string }): Promise<CreditReportSummary> {
      return recorded(
        await client.call({
          route: routes.creditReport,
          params: { reportId: input.reportId },
          schema: creditReportSchema,
        }),
        input.caseId,
      );
    },

    async getCreditReport(input: { reportId: string }): Promise<CreditReport> {
      return client.call({
        route: routes.creditReport,
        params: { reportId: input.reportId },
        schema: creditReportSchema,
      });
    },
  };

  /**
   * Find before create: a report already resolved (an earlier attempt whose answer was lost)
   * is read, not resolved again; a 409 is answered by reading the report's current state.
   */
  async function resolvePicklist(input: PicklistResolution, idempotencyKey: string | undefined): Promise<CreditReport> {
    const body = validateInput(picklistResolutionSchema, input, 'picklist resolution');
    const current = await client.call({
      route: routes.creditReport,
      params: { reportId: body.report_id },
      schema: creditReportSchema,
    });
    if (current.status !== TOO_MANY_RESULTS) return current;
    try {
      return await client.call({
        route: routes.resolveCreditReportPicklist,
        body,
        schema: creditReportSchema,
        idempotencyKey: idempotencyKeyFor(idempotencyKey),
      });
    } catch (error) {
      if (!(error instanceof ApplicationFailure) || error.type !== httpFailureType(409)) throw error;
      const after = await client.call({
        route: routes.creditReport,
        params: { reportId: body.report_id },
        schema: creditReportSchema,
      });
      if (after.status === TOO_MANY_RESULTS) throw error;
      return after;
    }
  }
}
