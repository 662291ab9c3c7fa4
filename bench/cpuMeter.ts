/**
 * CPU time spent by this process and by others (the Temporal dev server, a bridge process) over a
 * stretch of a benchmark, so that a figure can say where the time went, not only how long it took.
 */
import { readdirSync, readFileSync } from 'node:fs';

/** Clock ticks per second of /proc/<pid>/stat (USER_HZ, 100 on Linux). */
const TICKS_PER_SECOND = 100;

/** CPU milliseconds used so far by a process (user + system); NaN where /proc cannot be read. */
export function processCpuMs(pid: number): number {
  try {
    return cpuMsOfStat(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return Number.NaN;
  }
}

/** User + system CPU milliseconds in a `/proc/…/stat` line (a process's or a thread's). */
function cpuMsOfStat(stat: string): number {
  // Fields after the command name (which may hold spaces) start after the last ')'.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
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

/** CPU milliseconds used so far by each thread of a process, by thread id, with the thread's name. */
export function threadCpuMs(pid: number): Map<number, { name: string; ms: number }> {
  const threads = new Map<number, { name: string; ms: number }>();
  let tids: string[];
  try {
    tids = readdirSync(`/proc/${pid}/task`);
  } catch {
    return threads;
  }
  for (const tid of tids) {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      threads.set(Number(tid), { name, ms: cpuMsOfStat(stat) });
    } catch {
      // The thread ended between the listing and the read.
    }
  }
  return threads;
}

/**
 * A worker process's CPU by thread (Node 20 names its threads alike, so they are told apart by
 * role): its main thread (activities, payload codec, the SDK's activation handling), the Temporal
 * core's Rust threads (every thread not named `node`), the workflow thread (the busiest of the
 * rest: with a reused V8 context the SDK runs every workflow task on one Node worker thread) and
 * the others (V8's garbage collection and compiler threads, libuv's).
 */
export interface WorkerThreadsCpu {
  workflowThread: number;
  main: number;
  temporalCore: number;
  other: number;
}

/** Starts measuring a worker process's threads; the returned function answers each role's CPU since. */
export function workerThreadMeter(pid: number): () => WorkerThreadsCpu {
  const before = threadCpuMs(pid);
  return () =>
    threadRoles(
      pid,
      [...threadCpuMs(pid)].map(([tid, { name, ms }]) => ({ tid, name, ms: ms - (before.get(tid)?.ms ?? 0) })),
    );
}

/** Each role's CPU among a worker process's threads (`pid` is its main thread's id). */
export function threadRoles(pid: number, threads: { tid: number; name: string; ms: number }[]): WorkerThreadsCpu {
  const main = threads.find((t) => t.tid === pid)?.ms ?? Number.NaN;
  const others = threads.filter((t) => t.tid !== pid);
  const temporalCore = sum(others.filter((t) => isTemporalCoreThread(t.name)).map((t) => t.ms));
  const rest = others.filter((t) => !isTemporalCoreThread(t.name)).sort((a, b) => b.ms - a.ms);
  return { workflowThread: rest[0]?.ms ?? 0, main, temporalCore, other: sum(rest.slice(1).map((t) => t.ms)) };
}

/** The Temporal core's threads: tokio's runtime and the core's own named threads. */
const isTemporalCoreThread = (name: string) => name !== 'node' && !name.startsWith('libuv');
const sum = (values: number[]) => values.reduce((total, v) => total + v, 0);
