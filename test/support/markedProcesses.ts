/**
 * Finds the processes a test started, children and grandchildren included, by an environment
 * variable each inherits: a process left behind is found even when its parent is gone and it
 * has been adopted by init (Linux: /proc/<pid>/environ).
 */
import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { waitUntil } from './waitUntil';

export const PROCESS_MARKER = 'JOURNEYS_TEST_PROCESS_MARKER';

/** A marker to put in a spawned command's environment as `{ [PROCESS_MARKER]: marker }`. */
export const newProcessMarker = (): string => randomUUID();

/** The pids of the live processes whose environment holds the marker. */
export function markedProcesses(marker: string): number[] {
  const wanted = `${PROCESS_MARKER}=${marker}`;
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (!readFileSync(`/proc/${entry}/environ`, 'latin1').split('\0').includes(wanted)) continue;
      // A zombie has exited: it is waiting for its parent to read its status, not running.
      if (/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${entry}/stat`, 'latin1'))) continue;
      pids.push(Number(entry));
    } catch {
      // Gone meanwhile, or not ours to read.
    }
  }
  return pids;
}

/** A process's command line, for a failure that names what was left running. */
export function commandOf(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'latin1').split('\0').join(' ').trim().slice(0, 200);
  } catch {
    return '(gone)';
  }
}

/**
 * Waits up to `withinMs` for every marked process to end; answers the command lines of those
 * still running then (none: an empty list).
 */
export async function processesLeftAfter(marker: string, withinMs: number): Promise<string[]> {
  await waitUntil('no marked process left', () => markedProcesses(marker).length === 0, {
    timeoutMs: withinMs,
  }).catch(() => undefined);
  return markedProcesses(marker).map((pid) => `${pid} ${commandOf(pid)}`);
}
