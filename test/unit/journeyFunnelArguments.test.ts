/**
 * `journey funnel` checks its range and grouping before anything opens: a bad --from, --to or
 * --group-by is a usage error naming the option, and nothing runs; its table and CSV come from
 * the same figures as the API's.
 */
import { journeyProgram } from '../../cli/journeyProgram';
import { JourneyCommandError } from '../../cli/journeyInputFile';
import { formatFunnel } from '../../cli/funnelCommand';
import type { Funnel } from '../../case-file/funnel';

function parse(args: string[]): { ran: 'temporal' | 'local' | false } | { refused: string } {
  let ran: 'temporal' | 'local' | false = false;
  const program = journeyProgram(
    () => (ran = 'temporal'),
    () => (ran = 'local'),
  );
  for (const command of [program, ...program.commands]) command.configureOutput({ writeErr: () => {} });
  try {
    program.parse(args, { from: 'user' });
    return { ran };
  } catch (error) {
    if (error instanceof JourneyCommandError) return { refused: error.message };
    throw error;
  }
}

test('a valid range runs on the case file alone, without Temporal', () => {
  expect(parse(['funnel'])).toEqual({ ran: 'local' });
  expect(parse(['funnel', '--from', '2026-11-01', '--to', '2026-11-30', '--group-by', 'month', '--csv'])).toEqual({
    ran: 'local',
  });
});

test.each([
  [['--from', '2026-02-30x'], '--from: must be a date, YYYY-MM-DD'],
  [['--to', 'today'], '--to: must be a date, YYYY-MM-DD'],
  [['--group-by', 'year'], '--group-by:'],
  [['--from', '2026-11-30', '--to', '2026-11-01'], '--from: must not be after to'],
  [['--from', '2020-01-01', '--to', '2026-11-01'], '--to: the range spans'],
])('%j is a usage error naming the option', (args, message) => {
  const answer = parse(['funnel', ...args]);
  expect(answer).toEqual({ refused: expect.stringContaining(message) });
});

test('prints a table for the whole range, then one per period', () => {
  const step = {
    step: 'banking',
    reached: 3,
    completed: 1,
    waived: 1,
    expired: 0,
    needsAttention: 1,
    unfinished: 1,
    timeInStep: { count: 2, medianSeconds: 5400, p90Seconds: 7200 },
    waitingOnApplicant: { count: 2, medianSeconds: 1800, p90Seconds: 1800 },
    waitingOnProvider: { count: 2, medianSeconds: 0, p90Seconds: 600 },
    waitingOnOperator: { count: 2, medianSeconds: 3600, p90Seconds: 3600 },
    firstAction: { count: 0, medianSeconds: null, p90Seconds: null },
  };
  const funnel: Funnel = {
    from: '2026-11-01',
    to: '2026-11-30',
    groupBy: 'week',
    periods: [{ period: '2026-11-02', cases: 3, steps: [step] }],
    total: { cases: 3, steps: [step] },
  };
  expect(formatFunnel(funnel).split('\n')).toEqual([
    'cases started 2026-11-01 to 2026-11-30: 3 (times: median/p90, minutes)',
    'step     reached  completed  waived  expired  attention  unfinished  in step   applicant  provider  operator  first action',
    'banking  3        1          1       0        1          1           90m/120m  30m/30m    0m/10m    60m/60m   –/–',
    '',
    'week from 2026-11-02: 3 case(s)',
    'step     reached  completed  waived  expired  attention  unfinished  in step   applicant  provider  operator  first action',
    'banking  3        1          1       0        1          1           90m/120m  30m/30m    0m/10m    60m/60m   –/–',
  ]);
});
