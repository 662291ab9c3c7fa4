/**
 * The journey's writes into the read model, with the case file stubbed: every change written, in
 * order and one write at a time; a run's first write has every step and each later one only the
 * steps that changed; a write given up on leaves its steps to the next. Whatever the
 * case file took, merged in order as the store merges it (case-file/caseReadModel.ts), is the
 * journey's final status. A write of some steps the case file does not take (a reset run's, for a
 * row of the run before it) is followed by one of every step. A turn of the loop that changed
 * nothing writes nothing and holds up neither the next write nor a continue-as-new.
 */
import { randomUUID } from 'node:crypto';
import { ApplicationFailure } from '@temporalio/common';
import { waitForStatus } from '../../cli/watchStatus';
import {
  attemptReportKey,
  journeyStatusQuery,
  journeyWorkflowId,
  journeyWorkflowType,
  waiveStepUpdate,
  type JourneyStatus,
} from '../../client/journeyMessages';
import { stepReportSignal, stepStatusQuery } from '../../client/stepMessages';
import type { JourneyStateWrite } from '../../case-file/caseReadModel';
import type { CreditReportSummary } from '../../case-file/summaries';
import { startJourneyLogic, type JourneyLogic } from '../support/journeyLogic';
import { waitUntil } from '../support/waitUntil';

/** What the stubbed case file saw of one case. */
interface CaseWrites {
  /** Every write sent, in the order sent. */
  sent: JourneyStateWrite[];
  /** The writes it took. */
  taken: JourneyStateWrite[];
  /** The most writes out at once. */
  mostAtOnce: number;
  out: number;
  /** Holds every write until released. */
  held?: Promise<void>;
  /** The first write this matches is refused for good. */
  refuse?: (write: JourneyStateWrite) => boolean;
  refused?: JourneyStateWrite;
  /** The first write this matches is answered as the store answers a reset run's: not taken. */
  notTaken?: (write: JourneyStateWrite) => boolean;
  notTakenWrite?: JourneyStateWrite;
}

const cases = new Map<string, CaseWrites>();
/** The credit report answers once its case's gate opens. */
const reportGates = new Map<string, Promise<void>>();

const completeReport = (companyId: string): CreditReportSummary => ({
  case_file: null,
  report_id: `report-${companyId}`,
  company_id: companyId,
  status: 'Complete',
  picklist: null,
  report: {
    provider_id: 'CR-9',
    company_name: 'Known Ltd',
    company_number: null,
    country_code: 'GB',
    credit_score: 600,
  },
});

let logic: JourneyLogic;
beforeAll(async () => {
  logic = await startJourneyLogic({
    writeCaseState: async (write) => {
      const seen = cases.get(write.caseId);
      if (!seen) return true;
      seen.sent.push(write);
      seen.mostAtOnce = Math.max(seen.mostAtOnce, ++seen.out);
      try {
        await seen.held;
        if (!seen.refused && seen.refuse?.(write)) {
          seen.refused = write;
          throw ApplicationFailure.nonRetryable('the case file refuses this write', 'Refused');
        }
        if (!seen.notTakenWrite && seen.notTaken?.(write)) {
          seen.notTakenWrite = write;
          return false;
        }
        seen.taken.push(write);
        return true;
      } finally {
        seen.out--;
      }
    },
    requestCreditReport: async ({ company_id }) => {
      await reportGates.get(company_id);
      return completeReport(company_id);
    },
    requestIncomeEmployerVerificationAndSubscribe: async ({ caseId }) => ({
      request_id: `income-${caseId}`,
      status: 'Pending',
    }),
  });
});
afterAll(async () => {
  await logic?.stop();
});

function gate(): { opened: Promise<void>; open: () => void } {
  let open = () => {};
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

/** The stubbed case file's record of the writes of `caseId`, answering as `writes` says. */
function watchWrites(caseId: string, writes: Partial<CaseWrites> = {}): CaseWrites {
  const seen: CaseWrites = { sent: [], taken: [], mostAtOnce: 0, out: 0, ...writes };
  cases.set(caseId, seen);
  return seen;
}

/** A journey of two steps: the credit report, answered once `report` opens, and income-and-employer, which expires. */
async function journey(writes: Partial<CaseWrites> = {}) {
  const caseId = randomUUID();
  const seen = watchWrites(caseId, writes);
  const report = gate();
  const companyId = `company-${caseId}`;
  reportGates.set(companyId, report.opened);
  const handle = await logic.start({
    caseId,
    company: { company_id: companyId, company_name: 'Known Ltd', country_code: 'GB' },
    steps: { creditReport: true, incomeEmployer: true },
    deadlines: { incomeEmployer: '2 seconds' },
  });
  return { handle, seen, answerReport: report.open };
}

/** Answers the credit report and waives the expired income-and-employer step: the journey completes. */
async function completeByWaiver({ handle, answerReport }: Awaited<ReturnType<typeof journey>>) {
  answerReport();
  await waitForStatus(handle, journeyStatusQuery, (s) => s.state === 'needs_attention');
  await handle.executeUpdate(waiveStepUpdate, { args: [{ step: 'income-employer', reason: 'known employer' }] });
  return handle.result();
}

/** The steps as the store holds them once it has merged the writes it took, in order. */
function merged(taken: JourneyStateWrite[]): JourneyStateWrite['steps'] {
  const steps: JourneyStateWrite['steps'] = {};
  for (const write of taken) Object.assign(steps, write.steps);
  return steps;
}

/** The states of a step in the writes, in order. */
const statesWritten = (writes: JourneyStateWrite[], key: string) =>
  writes.map((w) => w.steps[key]?.state).filter((state) => state !== undefined);

const incomeExpired = (s: JourneyStatus) => s.steps['income-employer']?.state === 'expired';

test('writes every change in order, one at a time, each with only the steps it changed', async () => {
  const held = gate();
  const started = await journey({ held: held.opened });
  const { handle, seen } = started;
  // The first write stays out while income-and-employer waits and then expires.
  await waitForStatus(handle, journeyStatusQuery, incomeExpired);
  expect(seen.sent).toHaveLength(1);
  held.open();
  await waitUntil('the second write sent', () => seen.sent.length >= 2);
  const outcome = await completeByWaiver(started);

  expect(seen.mostAtOnce).toBe(1);
  const [first, second] = seen.sent;
  expect(first).toMatchObject({ allSteps: true });
  expect(Object.keys(first!.steps).sort()).toEqual(['credit-report', 'income-employer']);
  expect(second).toMatchObject({ allSteps: false });
  // The credit report had not changed since the first write: the second carries income-and-employer alone.
  expect(Object.keys(second!.steps)).toEqual(['income-employer']);
  // Every state each step went through reached the case file, in order, though the first write was held.
  expect(statesWritten(seen.taken, 'income-employer')).toEqual(['running', 'waiting', 'expired', 'waived']);
  expect(statesWritten(seen.taken, 'credit-report')).toEqual(['running', 'completed']);
  expect(seen.sent.map((w) => w.version)).toEqual(seen.sent.map((_, i) => i + 1));
  expect(seen.sent.at(-1)).toMatchObject({ state: 'completed', runStatus: 'COMPLETED' });
  expect(merged(seen.taken)).toEqual(outcome.steps);
});

test("a write given up on leaves its steps to the next, and the case file still ends with the journey's status", async () => {
  // The credit report completes at once and never changes again; the write that first says so is refused.
  const started = await journey({ refuse: (write) => write.steps['credit-report']?.state === 'completed' });
  const { seen } = started;
  const outcome = await completeByWaiver(started);

  const refused = seen.refused!;
  const next = seen.sent.find((w) => w.version === refused.version + 1)!;
  expect(next.steps['credit-report']).toMatchObject({ state: 'completed' });
  expect(seen.taken).not.toContain(refused);
  expect(merged(seen.taken)).toEqual(outcome.steps);
});

test('a write of the changed steps that the case file does not take is followed by one of every step', async () => {
  const started = await journey({ notTaken: (write) => !write.allSteps });
  const { seen } = started;
  const outcome = await completeByWaiver(started);

  const notTaken = seen.notTakenWrite!;
  const next = seen.sent.find((w) => w.version === notTaken.version + 1)!;
  expect(next).toMatchObject({ allSteps: true });
  expect(Object.keys(next.steps).sort()).toEqual(['credit-report', 'income-employer']);
  expect(merged(seen.taken)).toEqual(outcome.steps);
});

test("a journey waiting for an operator continues as new once its writes are taken; the new run's first write has every step", async () => {
  const caseId = randomUUID();
  watchWrites(caseId);
  // Started as any client may: the last field, which the case API does not take, asks for a
  // continue-as-new early (Temporal suggests one only at thousands of events).
  await logic.env.client.workflow.start(journeyWorkflowType, {
    workflowId: journeyWorkflowId(caseId),
    taskQueue: logic.taskQueue,
    args: [
      {
        caseId,
        steps: { incomeEmployer: true },
        deadlines: { incomeEmployer: '1 second' },
        continueAsNewAtHistoryLength: 10,
      },
    ],
  });
  const runs = await waitUntil('the writes of a second run', () => {
    const written = new Set(cases.get(caseId)!.taken.map((w) => w.runId));
    return written.size === 2 && written;
  });
  const latest = logic.env.client.workflow.getHandle(journeyWorkflowId(caseId));
  const { runId } = await latest.describe();
  expect(runs).toContain(runId);
  const [firstOfNewRun] = cases.get(caseId)!.taken.filter((w) => w.runId === runId);
  expect(firstOfNewRun).toMatchObject({ version: 1, steps: { 'income-employer': { state: 'expired' } } });
  await latest.terminate('test over');
});

test('a change that comes after a turn that changed nothing is written', async () => {
  const caseId = randomUUID();
  const seen = watchWrites(caseId);
  const handle = await logic.start({
    caseId,
    steps: { incomeEmployer: true },
    deadlines: { incomeEmployer: '3 seconds' },
  });
  const stepKey = 'income-employer';
  const waitingTaken = (w: JourneyStateWrite) => w.steps[stepKey]?.state === 'waiting';
  await waitUntil('the waiting step written', () => seen.taken.some(waitingTaken));
  // The step reports what the journey already shows: the journey's loop turns and finds nothing to write.
  const step = logic.env.client.workflow.getHandle(`${journeyWorkflowId(caseId)}/${stepKey}`);
  const unchanged = await step.query(stepStatusQuery);
  await handle.signal(stepReportSignal, { stepKey: attemptReportKey(stepKey, 1), seq: 1_000, status: unchanged });
  const sentBefore = seen.sent.length;

  await waitForStatus(handle, journeyStatusQuery, (s) => s.steps[stepKey]?.state === 'expired');
  await waitUntil('the expired step written', () => seen.taken.some((w) => w.steps[stepKey]?.state === 'expired'));
  expect(seen.sent.slice(sentBefore).some(waitingTaken)).toBe(false);
  await handle.terminate('test over');
});
