/**
 * The journey's decisions, with the provider's answers stubbed: a step the provider refuses needs
 * attention and an operator's retry or waiver settles it; a cancel ends the journey and its steps;
 * a journey nobody decides on closes at its operator deadline and then refuses actions by its state;
 * a closed journey offers no action and no operator deadline.
 * The LOS hears each turn once, in order.
 */
import { randomUUID } from 'node:crypto';
import { ApplicationFailure } from '@temporalio/common';
import { WorkflowUpdateFailedError, type WorkflowHandle } from '@temporalio/client';
import { waitForStatus } from '../../cli/watchStatus';
import {
  cancelJourneySignal,
  journeyStatusQuery,
  retryStepUpdate,
  waiveStepUpdate,
  type JourneyStatus,
  type OnboardCaseWorkflow,
} from '../../client/journeyMessages';
import type { CreditReportSummary } from '../../case-file/summaries';
import { startJourneyLogic, type JourneyLogic } from '../support/journeyLogic';

/** The provider cannot identify these companies until told otherwise; every other one reports at once. */
const unidentified = new Set<string>();

const report = (companyId: string, status: string): CreditReportSummary => ({
  case_file: null,
  report_id: `report-${companyId}`,
  company_id: companyId,
  status,
  picklist:
    status === 'TooManyResults'
      ? [{ provider_id: 'CR-1', company_name: 'One', company_number: null, country_code: 'GB', address: null }]
      : null,
  report:
    status === 'Complete'
      ? { provider_id: 'CR-9', company_name: 'Known Ltd', company_number: null, country_code: 'GB', credit_score: 600 }
      : null,
});

let logic: JourneyLogic;
beforeAll(async () => {
  logic = await startJourneyLogic({
    requestCreditReport: async ({ company_id }) => {
      if (unidentified.has(company_id))
        throw ApplicationFailure.create({
          type: 'HTTP_422',
          message: 'Provider answered 422: company not identified',
          nonRetryable: true,
          details: [{ status: 422 }],
        });
      return report(company_id, company_id.startsWith('ambiguous') ? 'TooManyResults' : 'Complete');
    },
  });
});
afterAll(async () => {
  await logic?.stop();
});

async function journey(companyId: string, deadlines: Record<string, string> = {}) {
  const caseId = randomUUID();
  const handle = await logic.start({
    caseId,
    company: { company_id: companyId, company_name: 'Known Ltd', country_code: 'GB' },
    steps: { creditReport: true },
    deadlines: { picklist: '1 minute', ...deadlines },
  });
  return { caseId, handle };
}

const reportState = (state: string) => (s: JourneyStatus) => s.steps['credit-report']?.state === state;
/** The case's events in the order the journey sent them (they are delivered in parallel, in any order). */
const eventsOf = (caseId: string) =>
  logic.events
    .filter((e) => e.caseId === caseId)
    .sort((a, b) => a.sequence - b.sequence)
    .map((e) => e.type);

async function needingAttention(): Promise<{ caseId: string; handle: WorkflowHandle<OnboardCaseWorkflow> }> {
  const companyId = `unknown-${randomUUID()}`;
  unidentified.add(companyId);
  const started = await journey(companyId);
  const status = await waitForStatus(started.handle, journeyStatusQuery, reportState('needs_attention'));
  expect(status.state).toBe('needs_attention');
  expect(status.steps['credit-report']!.reason).toMatch(/cannot identify the company/);
  unidentified.delete(companyId);
  return started;
}

test("a step the provider refuses needs attention; the operator's retry asks again and the journey completes", async () => {
  const { caseId, handle } = await needingAttention();
  const answer = await handle.executeUpdate(retryStepUpdate, { args: [{ step: 'credit-report', reason: 'fixed' }] });
  expect(answer.status.attempt).toBe(2);
  const outcome = await handle.result();
  expect(outcome.state).toBe('completed');
  expect(outcome.steps['credit-report']!.attempts.map((a) => a.state)).toEqual(['needs_attention', 'completed']);
  expect(eventsOf(caseId)).toEqual(['case.needs_attention', 'case.step_completed', 'case.completed']);
});

test('a waived step settles the journey, which completes with the step waived', async () => {
  const { caseId, handle } = await needingAttention();
  await handle.executeUpdate(waiveStepUpdate, { args: [{ step: 'credit-report', reason: 'known customer' }] });
  const outcome = await handle.result();
  expect(outcome).toMatchObject({ state: 'completed', steps: { 'credit-report': { state: 'waived' } } });
  expect(eventsOf(caseId)).toEqual(['case.needs_attention', 'case.completed']);
});

test('a cancel ends the journey and the step that waits, with the reason', async () => {
  const { caseId, handle } = await journey(`ambiguous-${randomUUID()}`);
  await waitForStatus(handle, journeyStatusQuery, reportState('waiting'));
  await handle.signal(cancelJourneySignal, { reason: 'applicant withdrew' });
  const outcome = await handle.result();
  expect(outcome.state).toBe('cancelled');
  expect(outcome.reasons[0]).toBe('applicant withdrew');
  expect(outcome.steps['credit-report']!.state).toBe('cancelled');
  // The picklist waited for an operator, so the LOS heard that first.
  expect(eventsOf(caseId)).toEqual(['case.needs_attention', 'case.cancelled']);
});

test('with no decision by its operator deadline the journey refuses a retry by its state, and closes once the LOS answers', async () => {
  const companyId = `unknown-${randomUUID()}`;
  unidentified.add(companyId);
  logic.holdLos();
  try {
    const { handle } = await journey(companyId, { operatorDecision: '1 second' });
    // The loop has ended: the journey waits only for the LOS to take its events.
    await waitForStatus(handle, journeyStatusQuery, (s) =>
      s.reasons.some((r) => r.includes('no operator decision within 1 second')),
    );
    const refused = await handle
      .executeUpdate(retryStepUpdate, { args: [{ step: 'credit-report', reason: 'too late' }] })
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(WorkflowUpdateFailedError);
    expect(String((refused as WorkflowUpdateFailedError).cause?.message)).toMatch(
      /^the journey has ended needs_attention \(no operator decision within 1 second\)/,
    );
    logic.releaseLos();
    const releasedAt = Date.now();
    expect((await handle.result()).state).toBe('needs_attention');
    expect(Date.now() - releasedAt).toBeLessThan(10_000);
  } finally {
    logic.releaseLos();
    unidentified.delete(companyId);
  }
});

test('a native cancel while the journey waits for an operator leaves no deadline and no action in its final status', async () => {
  const { handle } = await needingAttention();
  const waiting = await waitForStatus(handle, journeyStatusQuery, (s) => s.operatorDeadline !== null);
  expect(waiting.steps['credit-report']!.actions).toEqual(['retryStep credit-report', 'waiveStep credit-report']);
  await handle.cancel();
  await expect(handle.result()).rejects.toThrow();
  const final = await handle.query(journeyStatusQuery);
  expect(final.state).toBe('cancelled');
  expect(final.operatorDeadline).toBeNull();
  expect(Object.values(final.steps).map((step) => step.actions)).toEqual([[]]);
  expect(final.reasons[0]).toBe('cancelled through Temporal');
});
