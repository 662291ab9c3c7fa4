/**
 * How a benchmark reports a figure to the runner (bench/runAll.ts): one line per figure,
 * `BENCH_RESULT {json}`, printed after the benchmark's own human-readable output. The runner
 * reads these lines back from the child's output to build its summary table.
 */
import { z } from 'zod';

export const BENCH_RESULT_PREFIX = 'BENCH_RESULT ';

export const benchResultSchema = z.object({
  /** What was measured, e.g. `bridge throughput`. */
  name: z.string().min(1),
  /** The system's figure and its unit (`deliveries/s`, `token requests`, ...). */
  figure: z.number(),
  unit: z.string(),
  /** The baseline measured in the same run, in the same unit, and what it is. */
  baseline: z.number().nullable(),
  baselineName: z.string(),
  /** figure / baseline (null without a baseline). */
  ratio: z.number().nullable(),
  /** The target as a person reads it (`ratio ≥ 0.9`), or `none` for a figure reported only. */
  target: z.string(),
  /** Whether the target was met; null for a figure with no target. */
  pass: z.boolean().nullable(),
});

export type BenchResult = z.infer<typeof benchResultSchema>;

/** Prints the line the runner reads; returns the result for chaining into an exit code. */
export function reportResult(result: BenchResult): BenchResult {
  console.log(BENCH_RESULT_PREFIX + JSON.stringify(benchResultSchema.parse(result)));
  return result;
}

type Figure = { value: number; unit: string };
type Baseline = { value: number; name: string };

/** A figure against its baseline, judged by `meets` on their ratio. */
function ratioResult(
  name: string,
  figure: Figure,
  baseline: Baseline,
  target: string,
  meets: (ratio: number) => boolean,
): BenchResult {
  const ratio = figure.value / baseline.value;
  return {
    name,
    figure: figure.value,
    unit: figure.unit,
    baseline: baseline.value,
    baselineName: baseline.name,
    ratio,
    target,
    pass: meets(ratio),
  };
}

/** A result whose target is `ratio ≥ minimum`. */
export function ratioAtLeast(name: string, figure: Figure, baseline: Baseline, minimum: number): BenchResult {
  return ratioResult(name, figure, baseline, `ratio ≥ ${minimum}`, (ratio) => ratio >= minimum);
}

/** A result whose target is `ratio ≤ maximum` (a cost against its baseline's). */
export function ratioAtMost(name: string, figure: Figure, baseline: Baseline, maximum: number): BenchResult {
  return ratioResult(name, figure, baseline, `ratio ≤ ${maximum}`, (ratio) => ratio <= maximum);
}

/** A ratio reported for information, with no target. */
export function ratioReported(
  name: string,
  figure: { value: number; unit: string },
  baseline: { value: number; name: string },
): BenchResult {
  return {
    name,
    figure: figure.value,
    unit: figure.unit,
    baseline: baseline.value,
    baselineName: baseline.name,
    ratio: figure.value / baseline.value,
    target: 'none',
    pass: null,
  };
}

/** The exit code a benchmark ends with: 1 when any of its targets was missed. */
export function exitCodeOf(results: readonly BenchResult[]): number {
  return results.some((r) => r.pass === false) ? 1 : 0;
}

/**
 * The results in a benchmark's output. A `BENCH_RESULT` line that does not parse is reported as
 * a problem, never silently skipped (a benchmark whose figures cannot be read has not passed).
 */
export function parseBenchResults(output: string): { results: BenchResult[]; problems: string[] } {
  const results: BenchResult[] = [];
  const problems: string[] = [];
  for (const line of output.split(/\r?\n/)) {
    const start = line.indexOf(BENCH_RESULT_PREFIX);
    if (start !== 0) continue;
    const text = line.slice(BENCH_RESULT_PREFIX.length);
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      problems.push(`not JSON: ${text.slice(0, 120)}`);
      continue;
    }
    const parsed = benchResultSchema.safeParse(json);
    if (parsed.success) results.push(parsed.data);
    else
      problems.push(
        `not a result (${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}): ${text.slice(0, 120)}`,
      );
  }
  return { results, problems };
}

export const BENCH_SIZE_PREFIX = 'BENCH_SIZE ';

/**
 * Prints the size this run used (`3 journeys`, `1,000 idle journeys`), for the runner's summary:
 * the figures of a run are read beside its sizes, which the environment changes.
 */
export function reportSize(size: string): void {
  console.log(BENCH_SIZE_PREFIX + size);
}

/** The sizes a benchmark's output reported, in order. */
export function parseBenchSizes(output: string): string[] {
  return output
    .split(/\r?\n/)
    .filter((line) => line.startsWith(BENCH_SIZE_PREFIX))
    .map((line) => line.slice(BENCH_SIZE_PREFIX.length).trim());
}
