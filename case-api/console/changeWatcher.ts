/**
 * Live updates for the console without asking Temporal: a viewer waits (long polling)
 * until the mark of what it shows changes in the case file (case-file/caseChanges.ts). One loop
 * per API process reads the marks of every case being watched in one query, and the queue's mark
 * in another, every `intervalMs` while anyone waits: the cost of watching does not grow with the
 * viewers, and a change costs each viewer one read of the page.
 */

/** What a viewer watches: one case, or the queue (any case). */
export type Watched = { caseId: string } | { queue: true };

export interface MarkSource {
  caseMarks(caseIds: readonly string[]): Promise<Map<string, string>>;
  queueMark(): Promise<string>;
}

interface Waiter {
  watched: Watched;
  since: string;
  done: (mark: string | null) => void;
}

export class ChangeWatcher {
  private readonly waiters = new Set<Waiter>();
  private looping = false;

  constructor(
    private readonly source: MarkSource,
    private readonly intervalMs = 500,
  ) {}

  /** The current mark, for a page to carry (read it before the page's data: a change in between then shows as one). */
  async mark(watched: Watched): Promise<string> {
    if ('queue' in watched) return this.source.queueMark();
    return (await this.source.caseMarks([watched.caseId])).get(watched.caseId) ?? 'none';
  }

  /** Resolves with the new mark once it differs from `since`, or null after `timeoutMs` or when `signal` aborts. */
  wait(watched: Watched, since: string, timeoutMs: number, signal?: AbortSignal): Promise<string | null> {
    return new Promise((resolve) => {
      const waiter: Waiter = {
        watched,
        since,
        done: (mark) => {
          clearTimeout(timer);
          this.waiters.delete(waiter);
          resolve(mark);
        },
      };
      const timer = setTimeout(() => waiter.done(null), timeoutMs);
      timer.unref();
      signal?.addEventListener('abort', () => waiter.done(null), { once: true });
      this.waiters.add(waiter);
      void this.loop();
    });
  }

  private async loop(): Promise<void> {
    if (this.looping) return;
    this.looping = true;
    try {
      while (this.waiters.size > 0) {
        // A failed read (the case file restarting) is retried at the next tick; viewers keep waiting.
        await this.tick().catch(() => undefined);
        await new Promise((r) => setTimeout(r, this.intervalMs).unref());
      }
    } finally {
      this.looping = false;
    }
  }

  private async tick(): Promise<void> {
    const waiters = [...this.waiters];
    const caseIds = [...new Set(waiters.flatMap((w) => ('caseId' in w.watched ? [w.watched.caseId] : [])))];
    const marks = caseIds.length ? await this.source.caseMarks(caseIds) : new Map<string, string>();
    const queue = waiters.some((w) => 'queue' in w.watched) ? await this.source.queueMark() : undefined;
    for (const waiter of waiters) {
      const now = 'queue' in waiter.watched ? queue : (marks.get(waiter.watched.caseId) ?? 'none');
      if (now !== undefined && now !== waiter.since) waiter.done(now);
    }
  }
}
