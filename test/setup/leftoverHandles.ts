/**
 * The test environment of every suite: Node's, plus a check that a test file leaves nothing of its
 * own running once it ends. Jest gives a worker process 500 ms to exit after the last file; a
 * socket or a child process a file left open keeps the worker alive past that, and Jest then
 * prints "A worker process has failed to exit gracefully" (a warning CI refuses) only when that
 * file happened to run last in its worker. Here the file that left it fails, whatever the order.
 *
 * Node names active resources only by type, so this compares counts per type with the file's
 * start: a leftover can hide behind one of the same type that ended meanwhile, a timer most often.
 * So the file's own timers are also kept by identity, with where each was set: one still pending
 * and holding the process (ref'd) when the file ends is named by its creator's stack. (A worker
 * too large to exit in 500 ms gives the same warning with nothing left open: jest.config.js.)
 *
 * A file with a failed test is not failed for what it left: a test that fails may leave its calls
 * running (a Promise.all that rejected while the others went on), and jest drops a file's test
 * results when its environment's teardown throws, which would hide the failure behind its effect.
 * What it left is printed after the failure instead.
 */
import type { Circus } from '@jest/types';
import { TestEnvironment } from 'jest-environment-node';

/** As long as Jest waits for a worker to exit before it forces it. */
const SETTLE_MS = 500;
const POLL_MS = 20;

/** A file that sets many timers keeps only those not yet settled once it has this many. */
const PRUNE_AT = 1_000;

type Counts = Map<string, number>;
type Timer = NodeJS.Timeout & { _destroyed?: boolean };

/** Node marks a timer that fired (once) or was cleared as destroyed; an unref'd one holds nothing. */
function holdsProcess(timer: Timer): boolean {
  return timer._destroyed !== true && timer.hasRef();
}

function forgetSettled(timers: Map<Timer, string>): void {
  for (const timer of timers.keys()) if (timer._destroyed === true) timers.delete(timer);
}

/** Frames of the test file's code and its dependencies, not of this file or Node's internals. */
function whereSet(): string {
  const frames = (new Error().stack ?? '').split('\n').slice(1);
  return frames
    .filter((frame) => !frame.includes('leftoverHandles.ts') && !frame.includes('node:internal'))
    .slice(0, 4)
    .map((frame) => frame.trim())
    .join(' < ');
}

function activeResources(): Counts {
  const counts: Counts = new Map();
  for (const type of process.getActiveResourcesInfo()) counts.set(type, (counts.get(type) ?? 0) + 1);
  return counts;
}

/** What is active now beyond what was before the file ran, as "TCPSocketWrap ×3". */
function leftover(before: Counts): string[] {
  return [...activeResources()]
    .filter(([type, count]) => count > (before.get(type) ?? 0))
    .map(([type, count]) => `${type} ×${count - (before.get(type) ?? 0)}`);
}

export default class LeftoverHandlesEnvironment extends TestEnvironment {
  private before: Counts = new Map();
  private readonly timers = new Map<Timer, string>();
  private testFailed = false;

  handleTestEvent(event: Circus.Event): void {
    if (event.name === 'test_done' && event.test.errors.length > 0) this.testFailed = true;
    if (event.name === 'hook_failure') this.testFailed = true;
  }

  override async setup(): Promise<void> {
    this.before = activeResources();
    await super.setup();
    this.trackTimers();
  }

  /** The file's setTimeout and setInterval, and everything it loads, keep what they set here. */
  private trackTimers(): void {
    const timers = this.timers;
    for (const name of ['setTimeout', 'setInterval'] as const) {
      const original = this.global[name] as (...args: unknown[]) => Timer;
      const tracked = (...args: unknown[]): Timer => {
        const timer = original(...args);
        if (timers.size >= PRUNE_AT) forgetSettled(timers);
        timers.set(timer, whereSet());
        return timer;
      };
      this.global[name] = Object.assign(tracked, original) as never;
    }
  }

  /** Timers the file set that are still to fire (or repeat) and keep the process alive. */
  private pendingTimers(): string[] {
    return [...this.timers].filter(([timer]) => holdsProcess(timer)).map(([, where]) => where);
  }

  override async teardown(): Promise<void> {
    await super.teardown();
    const deadline = Date.now() + SETTLE_MS;
    // A server closing or a child exiting settles within a few milliseconds: wait for it, no longer.
    const settled = () => leftover(this.before).length === 0 && this.pendingTimers().length === 0;
    while (!settled() && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, POLL_MS).unref());
    }
    const timers = this.pendingTimers();
    this.timers.clear();
    const left = leftover(this.before).filter((entry) => !(timers.length > 0 && entry.startsWith('Timeout ')));
    if (left.length === 0 && timers.length === 0) return;
    const named = [...left, ...timers.map((where) => `a timer set at ${where}`)];
    if (this.testFailed) {
      process.stderr.write(`after a failed test, the file also left ${named.join(', ')} running\n`);
      return;
    }
    throw new Error(
      `the test file left ${named.join(', ')} running ${SETTLE_MS} ms after it ended: close what it opened ` +
        '(server.closeAllConnections() for sockets whose answers were not read, kill and await child processes, clear timers or unref them)',
    );
  }
}
