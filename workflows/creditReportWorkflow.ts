/**
 * The company credit report (spec §4.2, §4.3). A 422 (the company lacks number or country, rule 1)
 * needs attention with the reason. TooManyResults shows the picklist in `status` and waits, under
 * a deadline, for an operator's choice (the journey's `resolvePicklist` Update, passed on as a
 * signal; run alone, the step's own `resolveCreditReportPicklist`), whose validator refuses a choice
 * not on the list, or picks by the automatic rule when it is on: the one entry whose name (and
 * country) match the request exactly, else the one whose number and country do. Entries of a picklist usually share
 * a number (that is why it is ambiguous), so the name decides more often; the rule never guesses.
 */
import type { Duration } from '@temporalio/common';
import { msToNumber } from '@temporalio/common/lib/time';
import { condition, setHandler } from '@temporalio/workflow';
import { reportHeadline, type CreditReportSummary } from '../case-file/summaries';
import {
  choosePicklistEntrySignal,
  picklistChoiceProblem,
  resolveCreditReportPicklistUpdate,
  type CreditReportDetail,
} from '../client/creditReportMessages';
import type { CreditReportRequest, PicklistEntry } from '../provider';
import { TOO_MANY_RESULTS } from '../provider/creditReportConstants';
import { defaultDeadlines } from '../client/deadlines';
import { providerActivities } from './providerActivities';
import { failingOnProviderError, failureType, providerErrorOf } from './providerFailure';
import { keyed, type Purchasing } from './purchase';
import { terminalStates, trackStep } from './stepStatus';
import type { StepStatus } from '../client/stepMessages';

export interface CreditReportInput extends Purchasing {
  request: CreditReportRequest;
  /**
   * The report this need already bought (an earlier attempt's): read and continued (its picklist
   * resolved), never bought again. Without it the request is sent under the need's key, which
   * answers a report an attempt with a lost answer bought.
   */
  reportId?: string;
  /** The case, for the case file. */
  caseId?: string;
  /** Resolve a picklist without an operator when exactly one entry matches number and country. */
  automaticPicklistRule?: boolean;
  /** How long to wait for an operator to resolve a picklist. */
  picklistDeadline?: Duration;
  stepKey?: string;
  /** How long each provider call is retried before the step fails. */
  callBudget?: Duration;
}

export type CreditReportStatus = StepStatus<CreditReportDetail>;

const normal = (s: string | null | undefined) => s?.trim().toLowerCase() ?? null;

/** The entry the automatic rule picks, if exactly one matches; otherwise none. */
export function automaticChoice(request: CreditReportRequest, picklist: PicklistEntry[]): PicklistEntry | undefined {
  const sameCountry = (e: PicklistEntry) =>
    !request.country_code || normal(e.country_code) === normal(request.country_code);
  const byName = request.company_name
    ? picklist.filter((e) => normal(e.company_name) === normal(request.company_name) && sameCountry(e))
    : [];
  if (byName.length === 1) return byName[0];
  const byNumber = request.company_number
    ? picklist.filter((e) => e.company_number === request.company_number && sameCountry(e))
    : [];
  return byNumber.length === 1 ? byNumber[0] : undefined;
}

type Tracker = ReturnType<typeof trackStep<CreditReportDetail>>;

export async function creditReportWorkflow(input: CreditReportInput): Promise<CreditReportStatus> {
  const detail: CreditReportDetail = { picklist: null, report: null, resolvedBy: null };
  const tracker = trackStep<CreditReportDetail>(input.stepKey);
  const { status, update } = tracker;
  update({ detail, providerIds: { company_id: input.request.company_id } });
  const choice: { providerId?: string } = {};

  setHandler(
    resolveCreditReportPicklistUpdate,
    async ({ provider_id }) => {
      choice.providerId = provider_id;
      // Answer with the resolved report: wait until the step has finished with the choice.
      await condition(() => terminalStates.includes(status.state));
      return status.detail as CreditReportDetail;
    },
    {
      validator: ({ provider_id }) => {
        if (status.state !== 'waiting' || !detail.picklist)
          throw new Error('There is no picklist waiting to be resolved');
        if (choice.providerId !== undefined) throw new Error('The picklist has been resolved already');
        const problem = picklistChoiceProblem(detail.picklist, provider_id);
        if (problem) throw new Error(problem);
      },
    },
  );
  setHandler(choosePicklistEntrySignal, ({ provider_id }) => {
    if (
      status.state === 'waiting' &&
      choice.providerId === undefined &&
      !picklistChoiceProblem(detail.picklist, provider_id)
    )
      choice.providerId = provider_id;
  });

  return failingOnProviderError(tracker, () => requestReport(input, detail, choice, tracker));
}

async function requestReport(
  input: CreditReportInput,
  detail: CreditReportDetail,
  choice: { providerId?: string },
  { status, update, finish, spend, providerAnswered }: Tracker,
): Promise<CreditReportStatus> {
  const provider = providerActivities(input.callBudget, providerAnswered);
  const caseFile = input.caseId ? { caseId: input.caseId } : {};
  let report: CreditReportSummary;
  try {
    report = input.reportId
      ? await provider.readCreditReport({ reportId: input.reportId, ...caseFile })
      : await provider.requestCreditReport({ ...input.request, ...caseFile, ...keyed(input, 'request') });
  } catch (error) {
    if (failureType(error) !== 'HTTP_422') throw error;
    const providerError = providerErrorOf(error);
    // Nothing was bought, and the same request would be refused again: the next attempt asks anew.
    spend();
    return finish(
      'needs_attention',
      `the provider cannot identify the company: ${providerError.message}`,
      detail,
      providerError,
    );
  }
  update({ providerIds: { ...status.providerIds, report_id: report.report_id } });
  if (report.status !== TOO_MANY_RESULTS)
    return finish('completed', null, { ...detail, report: reportHeadline(report.report), resolvedBy: 'provider' });

  detail.picklist = report.picklist ?? [];
  const automatic = input.automaticPicklistRule ? automaticChoice(input.request, detail.picklist) : undefined;
  if (automatic) {
    choice.providerId = automatic.provider_id;
    detail.resolvedBy = 'automatic-rule';
  } else {
    const deadline = input.picklistDeadline ?? defaultDeadlines.picklist;
    // When the wait below expires, in workflow time: the status says so (the queue's deadline,
    // case-file/caseQueue.ts). It adds no command: the timer is the condition's own.
    detail.expiresAt = new Date(Date.now() + msToNumber(deadline)).toISOString();
    update({
      state: 'waiting',
      reason: 'the report matched several companies: choose one with the resolvePicklist update',
      detail,
    });
    if (!(await condition(() => choice.providerId !== undefined, deadline))) {
      // Kept: when the wait expired.
      return finish('expired', `nobody resolved the picklist within ${String(deadline)}`, detail);
    }
    // Resolved: no wait expires any more.
    delete detail.expiresAt;
    detail.resolvedBy = 'operator';
  }
  update({ state: 'running', reason: null, detail });
  const resolved = await provider.resolveCreditReportPicklist({
    report_id: report.report_id,
    provider_id: choice.providerId as string,
    ...caseFile,
    ...keyed(input, 'resolve'),
  });
  return finish('completed', null, { ...detail, report: reportHeadline(resolved.report) });
}
