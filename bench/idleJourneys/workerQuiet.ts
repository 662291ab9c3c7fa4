/**
 * A worker process's resident memory once it has gone quiet: no new workflows opened and its CPU
 * near idle for a while, then the median of a few RSS samples (one sample can catch a GC mid-way).
 */
import type { Client } from '@temporalio/client';
import { readCpuTicks, readRssKiB } from '../soak/processSampler';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function rssMiB(pid: number): number {
  return Math.round((readRssKiB(pid) ?? 0) / 1024);
}

/** Waits until the running-workflow count holds still and the worker uses under 5% of a core over `intervalMs`. */
export async function waitQuiet(client: Client, pid: number, intervalMs = 5_000, timeoutMs = 600_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let lastCount = -1;
  let lastTicks = readCpuTicks(pid) ?? 0;
  for (;;) {
    await sleep(intervalMs);
    const count = (await client.workflow.count('ExecutionStatus="Running"')).count;
    const ticks = readCpuTicks(pid) ?? 0;
    const cpuShare = (ticks - lastTicks) / 100 / (intervalMs / 1000);
    if (count === lastCount && cpuShare < 0.05) return;
    if (Date.now() > deadline)
      throw new Error(
        `the worker did not go quiet in ${timeoutMs} ms (open workflows ${count}, cpu ${Math.round(cpuShare * 100)}%)`,
      );
    lastCount = count;
    lastTicks = ticks;
  }
}

/** The median of `samples` RSS readings one second apart, in MiB. */
export async function steadyRssMiB(pid: number, samples = 10): Promise<number> {
  const readings: number[] = [];
  for (let i = 0; i < samples; i++) {
    readings.push(rssMiB(pid));
    if (i < samples - 1) await sleep(1_000);
  }
  readings.sort((a, b) => a - b);
  return readings[Math.floor(readings.length / 2)] ?? 0;
}

/** The highest RSS seen while `work` runs, sampled every second. */
export async function peakRssDuring<T>(pid: number, work: Promise<T>): Promise<{ result: T; peakMiB: number }> {
  let peakMiB = rssMiB(pid);
  const timer = setInterval(() => (peakMiB = Math.max(peakMiB, rssMiB(pid))), 1_000);
  try {
    return { result: await work, peakMiB: Math.max(peakMiB, rssMiB(pid)) };
  } finally {
    clearInterval(timer);
  }
}
