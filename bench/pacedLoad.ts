/**
 * An open-loop load: items sent at a fixed rate whatever the answers take (each start is due
 * `1000 / perSecond` ms after the one before), as deliveries arrive from a provider. Unlike a
 * closed loop, a slow answer does not slow the arrivals, so its latencies show queueing.
 */
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { percentile, type LoadFigures } from './closedLoop';

export async function pacedLoad<Item>(
  items: readonly Item[],
  perSecond: number,
  send: (item: Item) => Promise<void>,
): Promise<LoadFigures> {
  const latencies: number[] = [];
  const started = performance.now();
  const sent = items.map(async (item, i) => {
    await sleep(Math.max(0, started + (i * 1000) / perSecond - performance.now()));
    const t0 = performance.now();
    await send(item);
    latencies.push(performance.now() - t0);
  });
  await Promise.all(sent);
  const seconds = (performance.now() - started) / 1000;
  return {
    count: items.length,
    seconds,
    perSecond: items.length / seconds,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    latencies,
  };
}
