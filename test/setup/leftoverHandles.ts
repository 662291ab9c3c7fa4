/**
 * The test environment of every suite: Node's, plus a check that a test file leaves nothing of its
 * own running once it ends. Jest gives a worker process 500 ms to exit after the last file; a
 * socket or a child process a file left open keeps the worker alive past that, and Jest then
 * prints "A worker process has failed to exit gracefully" (a warning CI refuses) only when that
 * file happened to run last in its worker. Here the file that left it fails, whatever the order.
 *
 * Node names active resources only by type, so this compares counts per type with the file's
 * start: a leftover can hide behind one of the same type that ended meanwhile (a timer, most
 * often). It catches most; the unit tests of what it caught check the cause itself.
 */
import { TestEnvironment } from 'jest-environment-node';

/** As long as Jest waits for a worker to exit before it forces it. */
const SETTLE_MS = 500;
const POLL_MS = 20;

type Counts = Map<string, number>;

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

  override async setup(): Promise<void> {
    this.before = activeResources();
    await super.setup();
  }

  override async teardown(): Promise<void> {
    await super.teardown();
    const deadline = Date.now() + SETTLE_MS;
    // A server closing or a child exiting settles within a few milliseconds: wait for it, no longer.
    while (leftover(this.before).length > 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, POLL_MS).unref());
    }
    const left = leftover(this.before);
    if (left.length === 0) return;
    throw new Error(
      `the test file left ${left.join(', ')} running ${SETTLE_MS} ms after it ended: close what it opened ` +
        '(server.closeAllConnections() for sockets whose answers were not read, kill and await child processes, clear timers)',
    );
  }
}
