/**
 * Peak memory and CPU of the soak's processes, read from /proc every second: resident memory
 * (VmRSS, peak kept), CPU seconds (utime + stime) and the busiest interval's CPU share. Linux only;
 * elsewhere the figures stay empty rather than wrong.
 */
import { readFileSync } from 'node:fs';

export interface ProcessFigures {
  name: string;
  pid: number;
  peakRssMiB: number;
  cpuSeconds: number;
  /** The highest share of one core over one sampling interval, in percent. */
  peakCpuPercent: number;
}

const TICKS_PER_SECOND = 100;

export function readCpuTicks(pid: number): number | undefined {
  try {
    // Fields after the command name (which may contain spaces) start after the last ')'.
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(')').pop()!.trim().split(/\s+/);
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return undefined;
  }
}

export function readRssKiB(pid: number): number | undefined {
  try {
    const match = /VmRSS:\s+(\d+)\s+kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) : undefined;
  } catch {
    return undefined;
  }
}

export class ProcessSampler {
  private readonly figures = new Map<string, ProcessFigures & { lastTicks?: number; lastAt?: number }>();
  private timer: NodeJS.Timeout | undefined;

  /** Starts watching a process under a name of its own (`worker#2` for a restarted worker). */
  watch(name: string, pid: number): void {
    this.figures.set(name, { name, pid, peakRssMiB: 0, cpuSeconds: 0, peakCpuPercent: 0 });
    this.sampleOne(this.figures.get(name)!);
  }

  start(intervalMs = 1_000): void {
    this.timer = setInterval(() => this.sample(), intervalMs);
  }

  /** Samples once more (call just before a process is killed, so its last figures count). */
  sample(): void {
    for (const f of this.figures.values()) this.sampleOne(f);
  }

  stop(): ProcessFigures[] {
    clearInterval(this.timer);
    this.sample();
    return [...this.figures.values()].map(({ name, pid, peakRssMiB, cpuSeconds, peakCpuPercent }) => ({
      name,
      pid,
      peakRssMiB,
      cpuSeconds,
      peakCpuPercent,
    }));
  }

  private sampleOne(f: ProcessFigures & { lastTicks?: number; lastAt?: number }): void {
    const ticks = readCpuTicks(f.pid);
    const rss = readRssKiB(f.pid);
    if (ticks === undefined || rss === undefined) return;
    const now = Date.now();
    f.peakRssMiB = Math.max(f.peakRssMiB, Math.round(rss / 1024));
    f.cpuSeconds = ticks / TICKS_PER_SECOND;
    if (f.lastTicks !== undefined && f.lastAt !== undefined && now > f.lastAt) {
      const share = ((ticks - f.lastTicks) / TICKS_PER_SECOND / ((now - f.lastAt) / 1000)) * 100;
      f.peakCpuPercent = Math.max(f.peakCpuPercent, Math.round(share));
    }
    f.lastTicks = ticks;
    f.lastAt = now;
  }
}
