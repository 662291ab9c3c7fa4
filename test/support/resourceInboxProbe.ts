/**
 * A subscriber driven by a test (test/workflows/resourcePolling.test.ts): it holds a resource inbox
 * (workflows/resourceInbox.ts) and does what each `probeCommand` signal says, in order; on
 * cancellation it unsubscribes from everything it knows of, from the cancelled scope, as a step
 * that is cancelled does. Nothing in it is a journey's.
 */
import type { Duration } from '@temporalio/common';
import { condition, defineQuery, defineSignal, isCancellation, setHandler } from '@temporalio/workflow';
import type { ResourceKey } from '../../provider';
import { createResourceInbox } from '../../workflows/resourceInbox';

export type ProbeCommand =
  | { op: 'subscribe'; resource: ResourceKey; reconcileAfter?: Duration; reconcileBackoffCap?: Duration }
  | { op: 'track'; resource: ResourceKey }
  | { op: 'unsubscribe'; resource: ResourceKey }
  | { op: 'unsubscribeAll' }
  | { op: 'finish' };

export interface ProbeState {
  /** What `inbox.subscribed()` answers. */
  subscribed: ResourceKey[];
  /** `<kind>/<id>|<dedupeId>` of each event received. */
  received: string[];
  /** Commands carried out so far. */
  done: number;
}

export const probeCommandSignal = defineSignal<[ProbeCommand]>('probeCommand');
export const probeStateQuery = defineQuery<ProbeState>('probeState');

export async function resourceInboxProbe(): Promise<ProbeState> {
  const received: string[] = [];
  const inbox = createResourceInbox(
    (resource, delivery) => void received.push(`${resource.kind}/${resource.id}|${delivery.dedupeId}`),
  );
  const queue: ProbeCommand[] = [];
  let done = 0;
  const state = (): ProbeState => ({ subscribed: inbox.subscribed(), received, done });
  setHandler(probeCommandSignal, (command) => void queue.push(command));
  setHandler(probeStateQuery, state);
  try {
    for (;;) {
      await condition(() => queue.length > 0);
      const command = queue.shift() as ProbeCommand;
      if (command.op === 'finish') return state();
      if (command.op === 'subscribe')
        await inbox.subscribe(command.resource, command.reconcileAfter, command.reconcileBackoffCap);
      else if (command.op === 'track') inbox.track(command.resource);
      else if (command.op === 'unsubscribe') await inbox.unsubscribe(command.resource);
      else await inbox.unsubscribeAll();
      done++;
    }
  } catch (error) {
    if (isCancellation(error)) await inbox.unsubscribeAll();
    throw error;
  }
}
