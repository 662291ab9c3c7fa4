/**
 * The credit report step's decisions, with the provider's answers stubbed: a report that comes
 * whole, a picklist an operator resolves (and a choice not on it refused), the automatic rule that
 * picks the one exact match and declines to guess, a picklist nobody resolves in time, and a read
 * the provider never answers within the call's budget.
 */
import { randomUUID } from 'node:crypto';
import { WorkflowUpdateFailedError, type WorkflowHandle } from '@temporalio/client';
import { waitForStatus } from '../../cli/watchStatus';
import { resolveCreditReportPicklistUpdate, type CreditReportDetail } from '../../client/creditReportMessages';
import { stepStatusQuery } from '../../client/stepMessages';
import type { CreditReportSummary } from '../../case-file/summaries';
import type { PicklistEntry } from '../../provider';
import { creditReportWorkflow } from '../../workflows/creditReportWorkflow';
import { startJourneyLogic, type JourneyLogic } from '../support/journeyLogic';

const entry = (n: number, name: string): PicklistEntry => ({
  provider_id: `CR-${n}`,
  company_name: name,
  company_number: '05555555',
  country_code: 'GB',
  address: `${n} High Street`,
});
const picklist = [entry(1, 'Ambiguous Foods Ltd'), entry(2, 'Ambiguous Foods Ltd (Trading)')];

const summary = (status: string, chosen?: PicklistEntry): CreditReportSummary => ({
  case_file: null,
  report_id: 'report-1',
  company_id: 'company-1',
  status,
  picklist: status === 'TooManyResults' ? picklist : null,
  report: chosen
    ? {
        provider_id: chosen.provider_id,
        company_name: chosen.company_name,
        company_number: chosen.company_number,
        country_code: chosen.country_code,
        credit_score: 512,
      }
    : null,
});

let logic: JourneyLogic;
const resolved: string[] = [];
/** A read the provider never answers, until the test's end. */
let releaseUnanswered: () => void;
const unanswered = new Promise<void>((resolve) => (releaseUnanswered = resolve));
beforeAll(async () => {
  logic = await startJourneyLogic({
    requestCreditReport: async () => summary('TooManyResults'),
    readCreditReport: async () => {
      await unanswered;
      return summary('Complete', picklist[0]);
    },
    resolveCreditReportPicklist: async ({ provider_id }) => {
      resolved.push(provider_id);
      return summary(
        'Complete',
        picklist.find((e) => e.provider_id === provider_id),
      );
    },
  });
});
afterAll(async () => {
  releaseUnanswered();
  await logic?.stop();
});

function startReport(extra: Record<string, unknown> = {}): Promise<WorkflowHandle<typeof creditReportWorkflow>> {
  return logic.env.client.workflow.start(creditReportWorkflow, {
    workflowId: `credit/${randomUUID()}`,
    taskQueue: logic.taskQueue,
    args: [{ picklistDeadline: '20 seconds', request: { company_id: 'company-1' }, ...extra }],
  });
}

test('a picklist is shown in status and resolved by the Update, which refuses a choice not on the list', async () => {
  const beforeStart = Date.now();
  const handle = await startReport();
  const waiting = await waitForStatus(handle, stepStatusQuery, (s) => s.state === 'waiting');
  const detail = waiting.detail as CreditReportDetail;
  expect(detail.picklist).toEqual(picklist);
  // The status says when the wait expires: its picklistDeadline (20 s) after it began.
  const expiresAt = Date.parse(detail.expiresAt!);
  expect(expiresAt).toBeGreaterThanOrEqual(beforeStart + 20_000 - 1_000);
  expect(expiresAt).toBeLessThanOrEqual(Date.now() + 20_000 + 1_000);
  await expect(
    handle.executeUpdate(resolveCreditReportPicklistUpdate, { args: [{ provider_id: 'CR-NOT-LISTED' }] }),
  ).rejects.toBeInstanceOf(WorkflowUpdateFailedError);
  const answer = await handle.executeUpdate(resolveCreditReportPicklistUpdate, { args: [{ provider_id: 'CR-2' }] });
  expect(answer.report).toMatchObject({ provider_id: 'CR-2' });
  const result = await handle.result();
  expect(result).toMatchObject({ state: 'completed', detail: { resolvedBy: 'operator' } });
  // Resolved: no wait expires any more.
  expect(result.detail).not.toHaveProperty('expiresAt');
});

test('the automatic rule picks the one exact name match, and does not guess without one', async () => {
  const auto = await startReport({
    automaticPicklistRule: true,
    request: { company_id: 'company-1', company_name: 'Ambiguous Foods Ltd (Trading)', country_code: 'GB' },
  });
  expect(await auto.result()).toMatchObject({
    state: 'completed',
    detail: { resolvedBy: 'automatic-rule', report: { provider_id: 'CR-2' } },
  });

  // Every entry shares the number: the rule declines to guess and an operator is asked.
  const guess = await startReport({
    automaticPicklistRule: true,
    request: { company_id: 'company-1', company_number: '05555555', country_code: 'GB' },
  });
  const waiting = await waitForStatus(guess, stepStatusQuery, (s) => s.state === 'waiting');
  expect(waiting.reason).toMatch(/several companies/);
  await guess.terminate('the rule declined to guess, as it should');
});

test('an unresolved picklist expires at its deadline, keeping when it expired', async () => {
  const handle = await startReport({ picklistDeadline: '1 second' });
  expect(await handle.result()).toMatchObject({
    state: 'expired',
    reason: expect.stringContaining('picklist'),
    detail: { picklist, expiresAt: expect.any(String) },
  });
});

test("a call cut off by its budget ends the step failed, saying the budget ran out, not Temporal's words", async () => {
  const handle = await startReport({ reportId: 'report-1', callBudget: '2 seconds' });
  const result = await handle.result();
  expect(result).toMatchObject({ state: 'failed', error: { status: null } });
  // Temporal's own words follow in brackets, for whoever searches its logs.
  expect(result.reason).toMatch(
    /^a provider call failed: the call's budget ran out before the provider answered \(.*ScheduleToClose timeout.*\)$/,
  );
});
