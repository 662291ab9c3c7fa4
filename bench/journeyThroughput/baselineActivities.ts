/**
 * The baseline's activities: `nothing` has an empty body (a provider call's stand-in); `subscribe`
 * signalWithStarts a mailbox, as the real `subscribeToResource` does (a workflow cannot
 * signalWithStart), and does nothing else.
 */
import type { Client } from '@temporalio/client';
import { BASELINE_MAILBOX_TYPE, baselineSubscribeSignal } from './baselineMessages';

export interface BaselineActivities {
  nothing(): Promise<void>;
  subscribe(input: { mailbox: string; subscriber: string }): Promise<void>;
}

export function createBaselineActivities(client: Client, taskQueue: string): BaselineActivities {
  return {
    async nothing() {},
    async subscribe({ mailbox, subscriber }) {
      await client.workflow.signalWithStart(BASELINE_MAILBOX_TYPE, {
        workflowId: mailbox,
        taskQueue,
        args: [],
        signal: baselineSubscribeSignal,
        signalArgs: [subscriber],
      });
    },
  };
}
