/**
 * The funnel over the 30 journeys of test/support/funnelJourneys.ts, whose outcomes and timings
 * are known: every expected figure is counted by hand below from those timelines, in minutes;
 * percentiles interpolate as percentile_cont does: p of n sorted values sits at index p·(n−1).
 */
import { readFunnel, type FunnelStep } from '../../case-file/funnel';
import { openCaseFile, type CaseFileStore } from '../../case-file/store';
import { inTransaction } from '../../case-file/transaction';
import { startCaseFileProcess, type CaseFileProcess } from '../support/caseFileProcess';
import { writeCase, writeFunnelJourneys } from '../support/funnelJourneys';

let caseFile: CaseFileProcess;
let store: CaseFileStore;
beforeAll(async () => {
  caseFile = await startCaseFileProcess();
  store = await openCaseFile(caseFile.url, 1);
  await writeFunnelJourneys(store.pool);
});
afterAll(async () => {
  await store?.close();
  await caseFile?.stop();
});

const funnel = (from: string, to: string, groupBy: 'day' | 'week' | 'month' = 'week') =>
  inTransaction(store.pool, (c) =>
    readFunnel(c, { from: new Date(`${from}T00:00:00Z`), until: new Date(`${to}T00:00:00Z`), groupBy }),
  );
/** count, median and 90th percentile, in minutes (the funnel answers seconds). */
const times = (count: number, medianMinutes: number | null, p90Minutes: number | null) => ({
  count,
  medianSeconds: medianMinutes === null ? null : medianMinutes * 60,
  p90Seconds: p90Minutes === null ? null : p90Minutes * 60,
});
const none = times(0, null, null);
const stepOf = (steps: FunnelStep[], step: string) => steps.find((s) => s.step === step);

it('counts each step over the whole range as counted by hand', async () => {
  const found = await funnel('2026-11-01', '2026-12-01');
  expect(found.total.cases).toBe(30);
  expect(found.total.steps.map((s) => s.step)).toEqual(['credit-report', 'identity-verification', 'banking']);
  // Time in step: 10,20..100 (first week), 35,40..80 (second), 15 ×10 (third); sorted, index 14.5
  // holds 40 and 40, index 26.1 lies between 80 and 80. Provider: 10·i, 30 ×10, 15 ×10: 30, and
  // 70 + 0.1·10. Operator: 0 ×20 and 5,10..50: 0, and 35 + 0.1·5. First action: 5j, 10 of them.
  expect(stepOf(found.total.steps, 'credit-report')).toEqual({
    step: 'credit-report',
    reached: 30,
    completed: 30,
    waived: 0,
    expired: 0,
    needsAttention: 10,
    unfinished: 0,
    timeInStep: times(30, 40, 80),
    waitingOnApplicant: times(30, 0, 0),
    waitingOnProvider: times(30, 30, 71),
    waitingOnOperator: times(30, 0, 35.5),
    firstAction: times(10, 27.5, 45.5),
  });
  // Time: 40 ×10, 120 ×10 (ended by the close), 90 ×10. Applicant 30, 60, 30; provider 10, 0, 0;
  // operator 0, 60, 60. First action: 50 ×10 (the cancel), 3,6..30 (the assign): 30 and 50 in the
  // middle (40), index 17.1 between 50 and 50.
  expect(stepOf(found.total.steps, 'banking')).toEqual({
    step: 'banking',
    reached: 30,
    completed: 10,
    waived: 10,
    expired: 10,
    needsAttention: 20,
    unfinished: 10,
    timeInStep: times(30, 90, 120),
    waitingOnApplicant: times(30, 30, 60),
    waitingOnProvider: times(30, 0, 10),
    waitingOnOperator: times(30, 60, 60),
    firstAction: times(20, 40, 50),
  });
  // Still waiting in open cases: reached and unfinished, no time yet.
  expect(stepOf(found.total.steps, 'identity-verification')).toEqual({
    step: 'identity-verification',
    reached: 10,
    completed: 0,
    waived: 0,
    expired: 0,
    needsAttention: 0,
    unfinished: 10,
    timeInStep: none,
    waitingOnApplicant: none,
    waitingOnProvider: none,
    waitingOnOperator: none,
    firstAction: none,
  });
});

it('groups by the week, day or month the cases started in, and counts only the range asked for', async () => {
  const weekly = await funnel('2026-11-01', '2026-12-01');
  expect(weekly.periods.map((p) => [p.period, p.cases])).toEqual([
    ['2026-11-02', 10],
    ['2026-11-09', 10],
    ['2026-11-16', 10],
  ]);
  // The second week: time in step 35,40..80 (index 4.5: 57.5; index 8.1: 75 + 0.1·5).
  const second = weekly.periods[1]!.steps;
  expect(stepOf(second, 'credit-report')).toMatchObject({
    reached: 10,
    needsAttention: 10,
    timeInStep: times(10, 57.5, 75.5),
    waitingOnOperator: times(10, 27.5, 45.5),
    firstAction: times(10, 27.5, 45.5),
  });
  expect(stepOf(second, 'banking')).toMatchObject({ expired: 10, unfinished: 10, timeInStep: times(10, 120, 120) });
  // The first week: 10,20..100 (index 4.5: 55; index 8.1: 90 + 0.1·10).
  expect(stepOf(weekly.periods[0]!.steps, 'credit-report')?.timeInStep).toEqual(times(10, 55, 91));

  const monthly = await funnel('2026-11-01', '2026-12-01', 'month');
  expect(monthly.periods.map((p) => [p.period, p.cases])).toEqual([['2026-11-01', 30]]);

  // The second week's cases started on 10 Nov, one an hour from 01:00.
  const oneDay = await funnel('2026-11-10', '2026-11-11', 'day');
  expect(oneDay).toMatchObject({ from: '2026-11-10', to: '2026-11-10', total: { cases: 10 } });
  expect(oneDay.periods.map((p) => p.period)).toEqual(['2026-11-10']);
  expect(stepOf(oneDay.total.steps, 'banking')).toMatchObject({ reached: 10, expired: 10, completed: 0 });
});

it('counts a step waiting without a link (on the provider) as waiting on the provider, not on the applicant', async () => {
  // A 31st journey, in December: the credit report waits on the provider's webhook, then completes at 20.
  await writeCase(store.pool, new Date('2026-12-15T09:00:00.000Z'), [
    { at: 0, steps: { 'credit-report': { state: 'waiting' } } },
    { at: 20, steps: { 'credit-report': { state: 'completed' } } },
  ]);
  const december = await funnel('2026-12-01', '2027-01-01');
  expect(december.total.cases).toBe(1);
  expect(stepOf(december.total.steps, 'credit-report')).toMatchObject({
    completed: 1,
    timeInStep: times(1, 20, 20),
    waitingOnApplicant: times(1, 0, 0),
    waitingOnProvider: times(1, 20, 20),
  });
});
