/**
 * A closed-loop load: `concurrency` callers, each sending its next item as soon as the previous one
 * answered, until every item was sent. Throughput and latency percentiles of one run.
 */
import { performance } from 'node:perf_hooks';

export interface LoadFigures {
  count: number;
  seconds: number;
  perSecond: number;
  p50: number;
  p99: number;
  /** Every latency of the run (milliseconds), for combining runs. */
  latencies: number[];
}

export async function closedLoop<Item>(
  items: readonly Item[],
  concurrency: number,
  send: (item: Item) => Promise<void>,
): Promise<LoadFigures> {
  const latencies: number[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < items.length) {
        const item = items[next++]!;
        const t0 = performance.now();
        await send(item);
        latencies.push(performance.now() - t0);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  return figures(items.length, seconds, latencies);
}

/** Nearest-rank percentile of unsorted samples (milliseconds); NaN without samples. */
export function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

function figures(count: number, seconds: number, latencies: number[]): LoadFigures {
  return {
    count,
    seconds,
    perSecond: count / seconds,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    latencies,
  };
}

/** Several runs of one variant taken together: all items over all the time spent. */
export function combined(runs: readonly LoadFigures[]): LoadFigures {
  return figures(
    runs.reduce((sum, r) => sum + r.count, 0),
    runs.reduce((sum, r) => sum + r.seconds, 0),
    runs.flatMap((r) => r.latencies),
  );
}
