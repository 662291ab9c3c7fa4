/**
 * Counts the calls Temporal's frontend served, by operation, from the dev server's Prometheus
 * metrics (`service_requests{service_name="frontend"}`; `startDevServer({ metricsPort })`): what
 * looking at journeys costs, counted by the server, whatever process made the calls. The worker's
 * own calls (polls, task completions) are there too; `lookingOperations` are the ones a read of a
 * journey uses, so the difference of those over a window is what the viewers cost.
 *
 * The server may publish a call a moment after answering it, so every snapshot first makes a call
 * of its own (DescribeNamespace on a namespace nobody else uses) and waits until the metrics show
 * it: everything served before it shows too.
 */
import type { Connection } from '@temporalio/client';

/**
 * The operations a read of a journey would use: a query, a describe, a visibility list or count, an
 * Update's result.
 */
export const lookingOperations = [
  'QueryWorkflow',
  'DescribeWorkflowExecution',
  'ListWorkflowExecutions',
  'CountWorkflowExecutions',
  'ScanWorkflowExecutions',
  'ListOpenWorkflowExecutions',
  'ListClosedWorkflowExecutions',
  'PollWorkflowExecutionUpdate',
] as const;

/** The long poll `handle.result()` holds until a workflow closes (not billed in Temporal Cloud; no worker involved). */
export const closeLongPoll = 'GetWorkflowExecutionHistory';

export type CallCounts = Record<string, number>;

/** The frontend's calls in `namespace`, by operation, as the metrics show them now. */
export async function frontendCalls(metricsUrl: string, namespace: string): Promise<CallCounts> {
  const res = await fetch(metricsUrl);
  if (!res.ok) throw new Error(`${metricsUrl} answered ${res.status}`);
  const counts: CallCounts = {};
  for (const line of (await res.text()).split('\n')) {
    if (!line.startsWith('service_requests{')) continue;
    const labels = line.slice(line.indexOf('{') + 1, line.lastIndexOf('}'));
    const label = (name: string) => new RegExp(`(?:^|,)${name}="([^"]*)"`).exec(labels)?.[1];
    // Prometheus labels have `_` for what a name's own characters cannot be (a namespace's `-`).
    if (label('service_name') !== 'frontend' || label('namespace') !== namespace.replace(/[^A-Za-z0-9_]/g, '_'))
      continue;
    const operation = label('operation')!;
    counts[operation] = (counts[operation] ?? 0) + Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return counts;
}

/** `after - before` for every operation, the ones with no call left out. */
export function callsBetween(before: CallCounts, after: CallCounts): CallCounts {
  const diff: CallCounts = {};
  for (const [operation, count] of Object.entries(after)) {
    const calls = count - (before[operation] ?? 0);
    if (calls !== 0) diff[operation] = calls;
  }
  return diff;
}

/** The looking operations of `calls`, each present (0 when none). */
export function lookingCalls(calls: CallCounts): Record<(typeof lookingOperations)[number], number> {
  return Object.fromEntries(lookingOperations.map((o) => [o, calls[o] ?? 0])) as Record<
    (typeof lookingOperations)[number],
    number
  >;
}

export function sumOf(counts: Record<string, number>): number {
  return Object.values(counts).reduce((a, b) => a + b, 0);
}

export class TemporalCallCounter {
  /**
   * `barrierNamespace`: a namespace of the dev server no one else uses (`extraNamespaces`), whose
   * DescribeNamespace calls are this counter's own.
   */
  constructor(
    private readonly metricsUrl: string,
    private readonly namespace: string,
    private readonly connection: Pick<Connection, 'workflowService'>,
    private readonly barrierNamespace: string,
  ) {}

  /** The calls in the namespace so far, once every call made before this one shows in the metrics. */
  async snapshot(timeoutMs = 20_000): Promise<CallCounts> {
    const barrier = async () => (await frontendCalls(this.metricsUrl, this.barrierNamespace)).DescribeNamespace ?? 0;
    const before = await barrier();
    await this.connection.workflowService.describeNamespace({ namespace: this.barrierNamespace });
    const deadline = Date.now() + timeoutMs;
    while ((await barrier()) <= before) {
      if (Date.now() > deadline)
        throw new Error(`the dev server's metrics did not show a call within ${timeoutMs} ms (${this.metricsUrl})`);
      await new Promise((r) => setTimeout(r, 100));
    }
    return frontendCalls(this.metricsUrl, this.namespace);
  }
}
