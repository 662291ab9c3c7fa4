import {
  BENCH_RESULT_PREFIX,
  BENCH_SIZE_PREFIX,
  exitCodeOf,
  parseBenchResults,
  parseBenchSizes,
  ratioAtLeast,
  ratioAtMost,
  ratioReported,
  type BenchResult,
} from '../../bench/benchResult';
import { formatSizes, formatTable, runPassed, summaryRows, type BenchmarkRun } from '../../bench/benchSummary';

const met = ratioAtLeast('throughput', { value: 95, unit: 'deliveries/s' }, { value: 100, name: 'direct' }, 0.9);
const missed = ratioAtLeast('throughput', { value: 80, unit: 'deliveries/s' }, { value: 100, name: 'direct' }, 0.9);
const info: BenchResult = {
  name: 'p99',
  figure: 12.5,
  unit: 'ms',
  baseline: null,
  baselineName: 'none',
  ratio: null,
  target: 'none',
  pass: null,
};
const run = (over: Partial<BenchmarkRun>): BenchmarkRun => ({
  name: 'bridge',
  exitCode: 0,
  results: [met],
  problems: [],
  seconds: 1,
  ...over,
});

test('ratioAtLeast passes at the target and fails below it', () => {
  expect(met).toMatchObject({ ratio: 0.95, pass: true, target: 'ratio ≥ 0.9' });
  expect(missed).toMatchObject({ ratio: 0.8, pass: false });
  expect(ratioAtLeast('x', { value: 9, unit: 'u' }, { value: 10, name: 'b' }, 0.9).pass).toBe(true);
  expect(exitCodeOf([met, info])).toBe(0);
  expect(exitCodeOf([met, missed])).toBe(1);
});

test('ratioAtMost passes at the target and fails above it', () => {
  const cost = (value: number) =>
    ratioAtMost('bridge CPU', { value, unit: 'ms/delivery' }, { value: 2, name: 'minimal express' }, 1.5);
  expect(cost(3)).toMatchObject({ ratio: 1.5, pass: true, target: 'ratio ≤ 1.5' });
  expect(cost(3.2)).toMatchObject({ ratio: 1.6, pass: false });
  expect(exitCodeOf([cost(2), cost(3.2)])).toBe(1);
});

test('ratioReported carries its ratio and never fails a run', () => {
  const reported = ratioReported('in process', { value: 60, unit: 'deliveries/s' }, { value: 100, name: 'direct' });
  expect(reported).toMatchObject({ ratio: 0.6, target: 'none', pass: null, baselineName: 'direct' });
  expect(exitCodeOf([met, reported])).toBe(0);
});

test('result lines are read back from mixed output; broken ones are problems, not skipped', () => {
  const output = [
    'some progress line',
    `${BENCH_RESULT_PREFIX}${JSON.stringify(met)}`,
    `  ${BENCH_RESULT_PREFIX}${JSON.stringify(missed)}`, // not at the start of a line: not a result line
    `${BENCH_RESULT_PREFIX}{not json`,
    `${BENCH_RESULT_PREFIX}${JSON.stringify({ ...info, pass: 'yes' })}`,
    `${BENCH_RESULT_PREFIX}${JSON.stringify(info)}\r`,
  ].join('\n');
  const { results, problems } = parseBenchResults(output);
  expect(results).toEqual([met, info]);
  expect(problems).toHaveLength(2);
  expect(problems[0]).toMatch(/^not JSON/);
  expect(problems[1]).toMatch(/pass/);
});

test('a run passes only when every benchmark exited 0 and met every target', () => {
  expect(runPassed([run({}), run({ name: 'tokens', results: [met, info] })])).toBe(true);
  expect(runPassed([run({}), run({ exitCode: 1, results: [missed] })])).toBe(false);
  expect(runPassed([run({ exitCode: 1 })])).toBe(false); // crashed after a passing figure
  expect(runPassed([run({ results: [] })])).toBe(false); // nothing reported
  expect(runPassed([run({ problems: ['not JSON'] })])).toBe(false);
  expect(runPassed([run({ results: [missed] })])).toBe(false); // missed target though it exited 0
  expect(runPassed([])).toBe(false);
});

test('the summary has a row per figure, and a FAIL row for what the figures do not show', () => {
  const rows = summaryRows([
    run({ results: [met, info] }),
    run({ name: 'tokens', exitCode: 1, results: [missed] }),
    run({ name: 'case file', exitCode: 139, results: [] }),
  ]);
  expect(rows.map((r) => [r.benchmark, r.verdict])).toEqual([
    ['bridge: throughput', 'pass'],
    ['bridge: p99', 'info'],
    ['tokens: throughput', 'FAIL'],
    ['case file', 'FAIL'],
  ]);
  expect(rows[0]).toMatchObject({ figure: '95.0 deliveries/s', baseline: '100 (direct)', ratio: '0.95' });
  expect(rows[3]!.target).toMatch(/exited with 139.*no BENCH_RESULT/);
  const table = formatTable(rows).split('\n');
  expect(table).toHaveLength(6);
  expect(table[0]).toMatch(/^benchmark\s+figure\s+baseline\s+ratio\s+target\s+pass$/);
});

test("the summary says each benchmark's sizes and time, read from its BENCH_SIZE lines", () => {
  const output = [
    'progress',
    `${BENCH_SIZE_PREFIX}1000 idle journeys`,
    `${BENCH_SIZE_PREFIX}16 applicants at once\r`,
    `  ${BENCH_SIZE_PREFIX}not at the start`,
  ].join('\n');
  const sizes = parseBenchSizes(output);
  expect(sizes).toEqual(['1000 idle journeys', '16 applicants at once']);
  expect(formatSizes([run({ name: 'idle journeys', seconds: 612.4, sizes }), run({ seconds: 95 })])).toBe(
    'idle journeys: 612 s; 1000 idle journeys; 16 applicants at once\nbridge: 95 s',
  );
});
