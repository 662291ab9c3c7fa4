/**
 * The delivery ledger of a fault test: the simulator's delivery log (every delivery with its
 * outcome) held against the resource workflows' event logs. A delivery the bridge
 * answered 2xx is durably recorded, so it must be in exactly one place in a resource's log (the
 * same occurrence delivered twice is one event), and a tampered one must never have been accepted.
 */
import type { Client } from '@temporalio/client';
import type { DeliveryLogEntry } from '../../../simulator/store';
import { resourceStateQuery, type ResourceState } from '../../../client/resourceMessages';

export interface LedgerReport {
  /** Deliveries in the simulator's log, by outcome (`delivered` = answered 2xx). */
  byOutcome: Record<string, number>;
  /** Deliveries answered 2xx that no resource workflow holds (must be empty). */
  notApplied: DeliveryLogEntry[];
  /** Occurrences (batch id + event type) a resource workflow holds more than once (must be empty). */
  appliedTwice: string[];
  /** Tampered deliveries the bridge answered 2xx (must be empty). */
  tamperedAccepted: DeliveryLogEntry[];
  /** Events that came from reconciliation polling, not from a webhook. */
  polled: number;
  resources: number;
}

const key = (batchId: string | null, eventType: string) => `${batchId ?? '-'}|${eventType}`;
const answered2xx = (d: DeliveryLogEntry) => d.status !== null && d.status >= 200 && d.status < 300;

/**
 * Every resource workflow of a task queue (latest run of each), as its `resourceState` query answers.
 * With `onError`, a query that fails (a worker too busy to answer in time) is reported and skipped
 * instead of failing the whole read: the soak reports how many it could not read.
 */
export async function resourceStates(
  client: Client,
  taskQueue: string,
  onError?: (workflowId: string, error: unknown) => void,
): Promise<ResourceState[]> {
  const ids = new Set<string>();
  for await (const execution of client.workflow.list({
    query: `WorkflowType = 'resourceWorkflow' AND TaskQueue = '${taskQueue}'`,
  }))
    ids.add(execution.workflowId);
  // A few queries at a time: a soak has thousands of resources, each query a worker task.
  const states: ResourceState[] = [];
  const all = [...ids];
  const read = (id: string) =>
    client.workflow
      .getHandle(id)
      .query(resourceStateQuery)
      .catch((error: unknown) => {
        if (!onError) throw error;
        onError(id, error);
        return undefined;
      });
  for (let i = 0; i < all.length; i += 20) {
    for (const state of await Promise.all(all.slice(i, i + 20).map(read))) if (state) states.push(state);
  }
  return states;
}

export function compareLedger(deliveries: DeliveryLogEntry[], states: ResourceState[]): LedgerReport {
  const held = new Map<string, number>();
  const appliedTwice: string[] = [];
  let polled = 0;
  for (const state of states) {
    const inThisResource = new Map<string, number>();
    for (const event of state.events) {
      if (event.parse === 'polled') polled++;
      const k = key(event.batchId, event.eventType);
      inThisResource.set(k, (inThisResource.get(k) ?? 0) + 1);
      held.set(k, (held.get(k) ?? 0) + 1);
    }
    for (const [k, n] of inThisResource)
      if (n > 1 && !k.startsWith('-|')) appliedTwice.push(`${state.resource.kind}/${state.resource.id}: ${k} x${n}`);
  }
  const byOutcome: Record<string, number> = {};
  for (const d of deliveries) byOutcome[d.outcome] = (byOutcome[d.outcome] ?? 0) + 1;
  return {
    byOutcome,
    notApplied: deliveries.filter((d) => answered2xx(d) && !held.has(key(d.batch_id, d.event_type))),
    appliedTwice,
    tamperedAccepted: deliveries.filter((d) => answered2xx(d) && d.faults.includes('tampered')),
    polled,
    resources: states.length,
  };
}

/**
 * Reads the ledger until every 2xx delivery is applied or `timeoutMs` passes (a delivery answered
 * from the spool reaches its workflow a little later), then answers the last comparison.
 */
export async function settledLedger(
  client: Client,
  taskQueue: string,
  readDeliveries: () => Promise<DeliveryLogEntry[]>,
  timeoutMs = 30_000,
): Promise<LedgerReport> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const report = compareLedger(await readDeliveries(), await resourceStates(client, taskQueue));
    if (report.notApplied.length === 0 || Date.now() > deadline) return report;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}
