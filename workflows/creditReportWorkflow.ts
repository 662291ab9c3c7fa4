/**
 * The company credit report (spec §4.2, §4.3). A 422 (the company lacks number or country, rule 1)
 * needs attention with the reason. TooManyResults shows the picklist in `status` and waits, under
 * a deadline, for the `resolvePicklist` Update (its validator refuses a choice not on the list),
 * or picks by the automatic rule when it is on: the one entry whose name (and country) match the
 * request exactly, else the one whose number and country do. Entries of a picklist usually share
 * a number (that is why it is ambiguous), so the name decides more often; the rule never guesses.
 */
import { ApplicationFailure, type Duration } from '@temporalio/common';
import { condition, defineUpdate, setHandler } from '@temporalio/workflow';
import { TOO_MANY_RESULTS, type CreditReport, type CreditReportRequest, type PicklistEntry } from '../provider';
import { defaultDeadlines } from './deadlines';
import { provider } from './providerActivities';
import { terminalStates, trackStep, type StepStatus } from './stepStatus';

export interface CreditReportInput {
  request: CreditReportRequest;
  /** Resolve a picklist without an operator when exactly one entry matches number and country. */
  automaticPicklistRule?: boolean;
  /** How long to wait for an operator to resolve a picklist. */
  picklistDeadline?: Duration;
  stepKey?: string;
}

export interface CreditReportDetail {
  picklist: PicklistEntry[] | null;
  report: CreditReport['report'];
  resolvedBy: 'provider' | 'operator' | 'automatic-rule' | null;
}

export type CreditReportStatus = StepStatus<CreditReportDetail>;

export interface PicklistChoice {
  provider_id: string;
}

export const resolvePicklistUpdate = defineUpdate<CreditReportDetail, [PicklistChoice]>('resolvePicklist');

const normal = (s: string | null | undefined) => s?.trim().toLowerCase() ?? null;

/** The entry the automatic rule picks, if exactly one matches; otherwise none. */
export function automaticChoice(request: CreditReportRequest, picklist: PicklistEntry[]): PicklistEntry | undefined {
  const sameCountry = (e: PicklistEntry) => !request.country_code || normal(e.country_code) === normal(request.country_code);
  const byName = request.company_name ? picklist.filter((e) => normal(e.company_name) === normal(request.company_name) && sameCountry(e)) : [];
  if (byName.length === 1) return byName[0];
  const byNumber = request.company_number ? picklist.filter((e) => e.company_number === request.company_number && sameCountry(e)) : [];
  return byNumber.length === 1 ? byNumber[0] : undefined;
}

export async function creditReportWorkflow(input: CreditReportInput): Promise<CreditReportStatus> {
  const detail: CreditReportDetail = { picklist: null, report: null, resolvedBy: null };
  const { status, update, finish } = trackStep<CreditReportDetail>(input.stepKey);
  update({ detail, providerIds: { company_id: input.request.company_id } });
  let chosen: string | undefined;

  setHandler(
    resolvePicklistUpdate,
    async ({ provider_id }) => {
      chosen = provider_id;
      // Answer with the resolved report: wait until the step has finished with the choice.
      await condition(() => terminalStates.includes(status.state));
      return status.detail as CreditReportDetail;
    },
    {
      validator: ({ provider_id }) => {
        if (status.state !== 'waiting' || !detail.picklist) throw new Error('There is no picklist waiting to be resolved');
        if (chosen !== undefined) throw new Error('The picklist has been resolved already');
        if (!detail.picklist.some((e) => e.provider_id === provider_id)) {
          throw new Error(`${provider_id} is not on the picklist; choose one of ${detail.picklist.map((e) => e.provider_id).join(', ')}`);
        }
      },
    },
  );

  let report: CreditReport;
  try {
    report = await provider.requestCreditReport(input.request);
  } catch (error) {
    if (causeType(error) !== 'HTTP_422') throw error;
    return finish('needs_attention', `the provider cannot identify the company: ${causeMessage(error)}`, detail);
  }
  update({ providerIds: { ...status.providerIds, report_id: report.report_id } });
  if (report.status !== TOO_MANY_RESULTS) return finish('completed', null, { ...detail, report: report.report, resolvedBy: 'provider' });

  detail.picklist = report.picklist ?? [];
  const automatic = input.automaticPicklistRule ? automaticChoice(input.request, detail.picklist) : undefined;
  if (automatic) {
    chosen = automatic.provider_id;
    detail.resolvedBy = 'automatic-rule';
  } else {
    const deadline = input.picklistDeadline ?? defaultDeadlines.picklist;
    update({ state: 'waiting', reason: 'the report matched several companies: choose one with the resolvePicklist update', detail });
    if (!(await condition(() => chosen !== undefined, deadline))) {
      return finish('expired', `nobody resolved the picklist within ${String(deadline)}`, detail);
    }
    detail.resolvedBy = 'operator';
  }
  update({ state: 'running', reason: null, detail });
  const resolved = await provider.resolveCreditReportPicklist({ report_id: report.report_id, provider_id: chosen as string });
  return finish('completed', null, { ...detail, report: resolved.report });
}

/** The failure type of an activity failure (ActivityFailure wraps the ApplicationFailure). */
function causeType(error: unknown): string | undefined {
  const cause = (error as { cause?: unknown }).cause;
  if (cause instanceof ApplicationFailure) return cause.type ?? undefined;
  return error instanceof ApplicationFailure ? (error.type ?? undefined) : undefined;
}

function causeMessage(error: unknown): string {
  const cause = (error as { cause?: Error }).cause;
  return (cause ?? (error as Error)).message;
}
