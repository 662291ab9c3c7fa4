/**
 * Follows a workflow's `status` query and reports each change, until the workflow closes. Used to
 * show a person what a journey is doing; tests wait on conditions with `waitForStatus` instead.
 */
import type { WorkflowHandle } from '@temporalio/client';
import type { QueryDefinition } from '@temporalio/common';

export interface WatchOptions<S> {
  query: QueryDefinition<S>;
  onChange: (status: S) => void;
  intervalMs?: number;
}

export async function watchStatus<S>(handle: WorkflowHandle, options: WatchOptions<S>): Promise<S> {
  let last = '';
  const poll = async () => {
    const status = await handle.query(options.query);
    const key = JSON.stringify(status);
    if (key !== last) {
      last = key;
      options.onChange(status);
    }
    return status;
  };
  let closed = false;
  const result = handle.result().finally(() => (closed = true));
  while (!closed) {
    // A query can fail before the first workflow task completes; the next poll will tell.
    await poll().catch(() => undefined);
    await Promise.race([result.catch(() => undefined), new Promise((r) => setTimeout(r, options.intervalMs ?? 250))]);
  }
  await result;
  return poll();
}

/**
 * Follows a status the case file's read model holds (`read`), reporting each change, until the
 * workflow closes (`closed`, Temporal's long poll for its result: no query, no describe). With
 * `mark` (the case's mark in the case file, case-file/caseChanges.ts), it reads the mark every
 * `intervalMs` and the status only when the mark moved: a change costs one read of the read model,
 * an unchanged journey none. The last status is read once more after the close, when the
 * journey's final write has landed.
 */
export async function watchReadModel<S>(
  read: () => Promise<S | undefined>,
  closed: Promise<unknown>,
  options: Omit<WatchOptions<S>, 'query'> & { final: (status: S) => boolean; mark?: () => Promise<string | undefined> },
): Promise<S> {
  let last = '';
  let status: S | undefined;
  let ended = false;
  let readAt: string | undefined;
  closed.finally(() => (ended = true)).catch(() => undefined);
  for (;;) {
    const closedBefore = ended;
    // The mark before the status: a change in between shows as one more change, never goes unseen.
    const mark = options.mark && !closedBefore ? await options.mark().catch(() => undefined) : undefined;
    if (mark === undefined || mark !== readAt) {
      const next = await read().catch(() => undefined);
      if (next !== undefined) readAt = mark;
      status = next ?? status;
    }
    const key = JSON.stringify(status);
    if (status !== undefined && key !== last) {
      last = key;
      options.onChange(status);
    }
    if (status !== undefined && options.final(status)) return status;
    if (closedBefore && status !== undefined) return status;
    await Promise.race([closed.catch(() => undefined), new Promise((r) => setTimeout(r, options.intervalMs ?? 250))]);
  }
}

/** Polls the query until `predicate` holds; fails with the last status seen when time runs out. */
export async function waitForStatus<S>(
  handle: WorkflowHandle,
  query: QueryDefinition<S>,
  predicate: (status: S) => boolean,
  timeoutMs = 30_000,
): Promise<S> {
  const deadline = Date.now() + timeoutMs;
  let last: S | undefined;
  while (Date.now() < deadline) {
    try {
      last = await handle.query(query);
      if (predicate(last)) return last;
    } catch {
      // Not started yet, or a transient error: try again.
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`status never matched within ${timeoutMs} ms; last seen: ${JSON.stringify(last)}`);
}
