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
import { callInFlightMs, createPurchaseGuard } from './purchaseGuard';
import { routes } from './routes';
import { validateInput } from './validateInput';

/**
 * `caseId` names the case; `idempotencyKey` is the purchase's key (client/purchaseKey.ts), when the
 * workflow gives one.
 */
type WithCase<T> = T & { caseId?: string; idempotencyKey?: string; fresh?: boolean };

export function createCreditReportActivities(client: ProviderClient, caseFile: CaseFileStore) {
  // A provider stand-in (tests) may have no configuration: the default request timeout then.
  const guarded = createPurchaseGuard(caseFile, { inFlightMs: callInFlightMs(client.config?.requestTimeoutMs) });
  const readReport = (reportId: string) =>
    client.call({ route: routes.creditReport, params: { reportId }, schema: creditReportSchema });
  /** Every report read goes to the case file; the history gets the summary. */
  const recorded = async (report: CreditReport, caseId: string | undefined): Promise<CreditReportSummary> => {
    const at = caseFileAttempt(caseId);
    await caseFile.writeCreditReport(at, report);
    return summariseCreditReport(report, caseFileRef(at, 'credit_report', report.report_id));
  };
  return {
    /**
     * 422 (company lacks number or country, rule 1) fails non-retryably as HTTP_422. Through the
     * purchase ledger (purchaseGuard.ts): a request whose answer was lost cannot be found (the
     * spec has no list of reports and no webhook for them), so it waits for an operator at once.
     */
    async requestCreditReport(input: WithCase<CreditReportRequest>): Promise<CreditReportSummary> {
      const { caseId, idempotencyKey, fresh, ...request } = input;
      const body = validateInput(creditReportRequestSchema, request, 'credit report request');
      return guarded<CreditReportSummary>({
        callKey: idempotencyKey,
        kind: 'credit-report',
        subject: body.company_id,
        fresh,
        providerIdOf: (summary) => summary.report_id,
        create: async () =>
          recorded(
            await client.call({
              route: routes.requestCreditReport,
              body,
              schema: creditReportSchema,
              idempotencyKey: idempotencyKeyFor(idempotencyKey),
            }),
            caseId,
          ),
        find: () =>
          Promise.resolve({
            notFound: `the provider offers no way to find a credit report of company ${body.company_id} but its answer`,
            final: true,
          }),
      });
    },

    /** Through the ledger; a resolution whose answer was lost is found by reading the report. */
    async resolveCreditReportPicklist(input: WithCase<PicklistResolution>): Promise<CreditReportSummary> {
      const { caseId, idempotencyKey, fresh, ...resolution } = input;
      return guarded<CreditReportSummary>({
        callKey: idempotencyKey,
        kind: 'picklist-resolution',
        subject: resolution.report_id,
        fresh,
        providerIdOf: (summary) => summary.report_id,
        create: async () => recorded(await resolvePicklist(resolution, idempotencyKey), caseId),
        find: async () => {
          const current = await readReport(resolution.report_id);
          return current.status === TOO_MANY_RESULTS
            ? { nothingMade: `report ${resolution.report_id} still shows its picklist` }
            : { found: await recorded(current, caseId) };
        },
      });
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
