/** The baseline workflows' signals and the names the activities reach them by. */
import { defineSignal } from '@temporalio/workflow';

/** A step to its parent (a real step's report). */
export const baselineReportSignal = defineSignal<[]>('baselineReport');
/** A mailbox to its subscriber (a real resource workflow forwarding an event). */
export const baselineForwardSignal = defineSignal<[]>('baselineForward');
/** A client to a mailbox (a real webhook delivery through the bridge). */
export const baselineDeliverSignal = defineSignal<[]>('baselineDeliver');
/** A step's activity to a mailbox: the subscriber's workflow id. */
export const baselineSubscribeSignal = defineSignal<[string]>('baselineSubscribe');

/** The mailbox workflow's type, named rather than imported (activities never import workflow code). */
export const BASELINE_MAILBOX_TYPE = 'baselineMailbox';
