/**
 * CPU time spent by this process and by others (the Temporal dev server, a bridge process) over a
 * stretch of a benchmark, so that a figure can say where the time went, not only how long it took.
 */
import { readFileSync } from 'node:fs';

/** Clock ticks per second of /proc/<pid>/stat (USER_HZ, 100 on Linux). */
const TICKS_PER_SECOND = 100;

/** CPU milliseconds used so far by a process (user + system); NaN where /proc cannot be read. */
export function processCpuMs(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces) start after the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
  } catch {
    return Number.NaN;
  }
}

export interface CpuSpent {
  selfMs: number;
  /** One entry per pid given to cpuMeter, in that order. */
  othersMs: number[];
}

/** Starts measuring; the returned function answers the CPU time spent since. */
export function cpuMeter(otherPids: readonly number[]): () => CpuSpent {
  const self = process.cpuUsage();
  const others = otherPids.map(processCpuMs);
  return () => {
    const used = process.cpuUsage(self);
    return {
      selfMs: (used.user + used.system) / 1000,
      othersMs: otherPids.map((pid, i) => processCpuMs(pid) - others[i]!),
    };
  };
}
