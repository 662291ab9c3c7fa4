/** The baseline workflows' signals and the names the activities reach them by. */
import { defineSignal } from '@temporalio/workflow';

/** A step to its parent (a real step's report). */
export const baselineReportSignal = defineSignal<[]>('baselineReport');
/** A mailbox to its subscriber (a real resource workflow forwarding an event). */
export const baselineForwardSignal = defineSignal<[]>('baselineForward');
/** A client to a mailbox (a real webhook delivery through the bridge): whether it is to be forwarded. */
export const baselineDeliverSignal = defineSignal<[boolean]>('baselineDeliver');
/** A step's activity to a mailbox: the subscriber's workflow id. */
export const baselineSubscribeSignal = defineSignal<[string]>('baselineSubscribe');
/** A step to a mailbox as it ends (a real step leaving its resource): the subscriber's workflow id. */
export const baselineLeaveSignal = defineSignal<[string]>('baselineLeave');

/** The mailbox workflow's type, named rather than imported (activities never import workflow code). */
export const BASELINE_MAILBOX_TYPE = 'baselineMailbox';
