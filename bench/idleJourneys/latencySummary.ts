/** p50, p99 and max of a set of durations (nearest-rank percentiles), in milliseconds. */
export interface LatencySummary {
  count: number;
  p50: number;
  p99: number;
  max: number;
}

export function summarize(durationsMs: readonly number[]): LatencySummary {
  const sorted = [...durationsMs].sort((a, b) => a - b);
  const rank = (p: number) =>
    sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? Number.NaN;
  return { count: sorted.length, p50: rank(50), p99: rank(99), max: sorted[sorted.length - 1] ?? Number.NaN };
}

export function formatSummary(s: LatencySummary): string {
  const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
  return `${s.count} journeys, p50 ${seconds(s.p50)}, p99 ${seconds(s.p99)}, max ${seconds(s.max)}`;
}
