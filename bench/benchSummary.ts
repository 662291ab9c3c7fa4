/**
 * The runner's verdict: one row per reported figure (or per benchmark that reported none), and
 * whether the whole run passed. A benchmark fails when it exits non-zero, when a figure misses its
 * target, when a BENCH_RESULT line cannot be read, or when it reports no figure at all.
 */
import type { BenchResult } from './benchResult';

export interface BenchmarkRun {
  name: string;
  exitCode: number | null;
  results: BenchResult[];
  problems: string[];
  seconds: number;
  /** The sizes it ran with (BENCH_SIZE lines). */
  sizes?: string[];
}

export interface SummaryRow {
  benchmark: string;
  figure: string;
  baseline: string;
  ratio: string;
  target: string;
  verdict: 'pass' | 'FAIL' | 'info';
}

function number(value: number): string {
  if (!Number.isFinite(value)) return String(value);
  const abs = Math.abs(value);
  return abs >= 100 ? value.toFixed(0) : abs >= 10 ? value.toFixed(1) : value.toFixed(2);
}

export function benchmarkFailed(run: BenchmarkRun): boolean {
  return (
    run.exitCode !== 0 ||
    run.problems.length > 0 ||
    run.results.length === 0 ||
    run.results.some((r) => r.pass === false)
  );
}

export function summaryRows(runs: readonly BenchmarkRun[]): SummaryRow[] {
  return runs.flatMap((run): SummaryRow[] => {
    const rows: SummaryRow[] = run.results.map((r) => ({
      benchmark: `${run.name}: ${r.name}`,
      figure: `${number(r.figure)} ${r.unit}`,
      baseline: r.baseline === null ? '-' : `${number(r.baseline)} (${r.baselineName})`,
      ratio: r.ratio === null ? '-' : number(r.ratio),
      target: r.target,
      verdict: r.pass === null ? 'info' : r.pass ? 'pass' : 'FAIL',
    }));
    // Exit code 1 with a missed target is the benchmark saying so; any other non-zero exit is a crash.
    const exitExplained = run.exitCode === 0 || (run.exitCode === 1 && run.results.some((r) => r.pass === false));
    const why = [
      ...(exitExplained ? [] : [`exited with ${run.exitCode ?? 'a signal'}`]),
      ...(run.results.length === 0 ? ['reported no BENCH_RESULT line (bench/README.md)'] : []),
      ...run.problems.map((p) => `unreadable result: ${p}`),
    ];
    // A failure the figures do not show (a crash, an unreadable line) gets a row of its own.
    if (why.length > 0)
      rows.push({
        benchmark: run.name,
        figure: '-',
        baseline: '-',
        ratio: '-',
        target: why.join('; '),
        verdict: 'FAIL',
      });
    return rows;
  });
}

export function runPassed(runs: readonly BenchmarkRun[]): boolean {
  return runs.length > 0 && !runs.some(benchmarkFailed);
}

/** A plain-text table, columns padded to their widest cell. */
export function formatTable(rows: readonly SummaryRow[]): string {
  const header: SummaryRow = {
    benchmark: 'benchmark',
    figure: 'figure',
    baseline: 'baseline',
    ratio: 'ratio',
    target: 'target',
    verdict: 'pass',
  };
  const keys = Object.keys(header) as (keyof SummaryRow)[];
  const all = [header, ...rows];
  const widths = keys.map((k) => Math.max(...all.map((r) => r[k].length)));
  const line = (r: SummaryRow) =>
    keys
      .map((k, i) => r[k].padEnd(widths[i]!))
      .join('  ')
      .trimEnd();
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

/** One line per benchmark: how long it took and the sizes it ran with. */
export function formatSizes(runs: readonly BenchmarkRun[]): string {
  return runs
    .map((run) => `${run.name}: ${run.seconds.toFixed(0)} s${run.sizes?.length ? `; ${run.sizes.join('; ')}` : ''}`)
    .join('\n');
}
