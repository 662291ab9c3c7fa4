/**
 * A journey reset to the task that accepted a `waiveStep`, with step reports after it, replays.
 *
 * The reset reapplies the Update (UPDATE_ADMITTED) and the reports (SIGNALED) to the new run, and
 * its first new task takes them together. Live, the worker hands the journey the Update before
 * the reports, in the history's order; a replay hands it the reports first and the Update after
 * them (sdk-core holds a reapplied Update until the task's commands show its acceptance). Each
 * message wakes the journey's loop, so the order decides whether the loop's commands or the
 * Update's answer come first, unless the answer waits for the loop's pass.
 *
 * docs/reliability.md, "Journey runs that replay".
 */
import { randomUUID } from 'node:crypto';
import { ApplicationFailure } from '@temporalio/common';
import type { WorkflowHandle } from '@temporalio/client';
import { temporal } from '@temporalio/proto';
import { Worker } from '@temporalio/worker';
import { waitForStatus } from '../../cli/watchStatus';
import { journeyStatusQuery, waiveStepUpdate, type JourneyStatus } from '../../client/journeyMessages';
import { failureConverterPath } from '../../codec/dataConverter';
import { testWorkflowBundle } from '../setup/testEnvironment';
import { pendingIdvRequest, startJourneyLogic, type JourneyLogic } from '../support/journeyLogic';
import { reapplied } from '../support/resetReapplied';
import { waitUntil } from '../support/waitUntil';

type History = temporal.api.history.v1.IHistory;

let logic: JourneyLogic;
let requests = 0;
beforeAll(async () => {
  logic = await startJourneyLogic({
    requestCreditReport: async () => {
      throw ApplicationFailure.create({
        type: 'HTTP_422',
        message: 'Provider answered 422: company not identified',
        nonRetryable: true,
        details: [{ status: 422 }],
      });
    },
    openIdentityVerificationRequest: async ({ personId }) => pendingIdvRequest(personId, `idv-${++requests}`),
    getIdentityVerificationResult: async (input) => ({
      case_file: null,
      checks: 0,
      request_id: input.requestId ?? '',
      person_id: 'person',
      status: 'Completed',
      verification_status: 'ResubmissionRequested',
    }),
  });
});
afterAll(async () => {
  await logic?.stop();
});

const people = ['p1', 'p2', 'p3'];
const idvKey = (personId: string) => `identity-verification/${personId}`;
type Journey = Awaited<ReturnType<JourneyLogic['start']>>;
type HistoryEvent = temporal.api.history.v1.IHistoryEvent;
const eventsOf = async (handle: WorkflowHandle): Promise<HistoryEvent[]> => (await handle.fetchHistory()).events ?? [];
/** The events after the journey accepted its Update, and the task that accepted it. */
function aroundTheUpdate(events: HistoryEvent[]): { task: HistoryEvent; after: HistoryEvent[] } {
  const accepted = events.findIndex((e) => e.workflowExecutionUpdateAcceptedEventAttributes);
  const tasks = events.slice(0, accepted).filter((e) => e.workflowTaskCompletedEventAttributes);
  return { task: tasks[tasks.length - 1]!, after: events.slice(accepted) };
}

/** The journey's credit report needs attention and each person's verification waits for them. */
async function waitingJourney(): Promise<Journey> {
  const handle = await logic.start({
    caseId: randomUUID(),
    company: { company_id: `unknown-${randomUUID()}`, company_name: 'Unknown Ltd', country_code: 'GB' },
    people: people.map((personId) => ({ personId })),
    steps: { creditReport: true, identityVerification: true },
    deadlines: { identityVerification: '1 minute' },
  });
  await waitForStatus(
    handle,
    journeyStatusQuery,
    (s: JourneyStatus) =>
      s.steps['credit-report']?.state === 'needs_attention' &&
      people.every((p) => s.steps[idvKey(p)]?.state === 'waiting'),
  );
  return handle;
}

/**
 * Each person finishes their verification, which asks them to resubmit: each step sends the
 * journey a report of its new request, and the journey takes them all.
 */
async function everyoneResubmits(handle: Journey): Promise<void> {
  for (const personId of people) {
    const step = (await handle.query(journeyStatusQuery)).steps[idvKey(personId)]!;
    const requestId = step.providerIds.request_id!;
    await logic.deliver(step.workflowId!, { kind: 'idv', id: requestId }, 'IdentityVerification.Completed', {
      identity_request: { request_id: requestId, identity_result_endpoint: `https://provider.example/${requestId}` },
    });
  }
  await waitUntil('the journey takes every report', async () => {
    const { after } = aroundTheUpdate(await eventsOf(handle));
    const reports = after.filter((e) => e.workflowExecutionSignaledEventAttributes);
    const lastReport = after.indexOf(reports[reports.length - 1]!);
    return (
      reports.length === people.length && after.slice(lastReport).some((e) => e.workflowTaskCompletedEventAttributes)
    );
  });
}

/** Resets the journey to the task that accepted its Update; answers the new run once it has answered it. */
async function resetToTheUpdate(handle: Journey): Promise<History> {
  const { task } = aroundTheUpdate(await eventsOf(handle));
  const { runId } = await logic.env.client.workflowService.resetWorkflowExecution({
    namespace: logic.env.namespace ?? 'default',
    workflowExecution: { workflowId: handle.workflowId, runId: (await handle.describe()).runId },
    reason: 'reset across a waiver',
    workflowTaskFinishEventId: task.eventId,
    requestId: randomUUID(),
  });
  const reset = logic.env.client.workflow.getHandle(handle.workflowId, runId ?? undefined);
  await waitUntil('the new run answers the reapplied waiver', async () =>
    (await eventsOf(reset)).some((e) => e.workflowExecutionUpdateCompletedEventAttributes),
  );
  const history = await reset.fetchHistory();
  await reset.terminate('test done').catch(() => undefined);
  return history;
}

test('reset to the task that accepted a waiver, with step reports after it, the new run replays', async () => {
  const handle = await waitingJourney();
  await handle.executeUpdate(waiveStepUpdate, { args: [{ step: 'credit-report', reason: 'known customer' }] });
  await everyoneResubmits(handle);

  const history = await resetToTheUpdate(handle);
  expect(reapplied(history)).toEqual(['UPDATE_ADMITTED', ...people.map(() => 'SIGNALED')]);
  await expect(
    Worker.runReplayHistory(
      { workflowBundle: testWorkflowBundle(), dataConverter: { failureConverterPath } },
      history,
      handle.workflowId,
    ),
  ).resolves.toBeUndefined();
});
