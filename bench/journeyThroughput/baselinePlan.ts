/**
 * What one baseline journey does, derived from a measured real journey (journeyShape.ts) and run
 * by baselineWorkflows.ts. Plain data: it crosses into the workflow sandbox as an argument.
 */

/** A mailbox (the real resource workflow's stand-in), started by signalWithStart. */
export interface BaselineMailboxPlan {
  workflowId: string;
  /** Deliveries from a client (the bridge's webhook deliveries in the real journey). */
  deliveries: number;
  /**
   * How many of them it forwards to each subscriber, the first ones; the others it keeps without
   * forwarding (a real resource forwards one delivery per occurrence, e.g. not both the parent's
   * and the child's of a processed document).
   */
  forwarded: number;
}

/** One child workflow (a real step's stand-in). */
export interface BaselineStepPlan {
  workflowId: string;
  /** Children of the same wave start together; a wave starts when the one before it has completed. */
  wave: number;
  /** Empty activities before subscribing to the mailboxes (the real step's provider calls before it waits). */
  activitiesBefore: number;
  /** Empty activities after the wait (the real step's result reads and case-file writes). */
  activitiesAfter: number;
  /** Signals to the parent (the real step's reports). */
  reports: number;
  /** Mailboxes subscribed to, each by an activity that signalWithStarts it. */
  mailboxes: string[];
  /** Mailboxes signalled when the step ends (a real step leaving its resources). */
  leaves: string[];
  /** Forwarded deliveries the step waits for (under a timer, cancelled when they are in). */
  forwardsAwaited: number;
}

export interface BaselineJourneyPlan {
  /** Empty activities of the parent: one as each child completes, the rest at the end. */
  activities: number;
  /**
   * Empty local activities of the parent, sent without waiting (the real journey's read-model
   * writes and LOS events, each a local activity's one try): `localActivitiesAtStart` before any
   * child completes, the rest spread over the children's completions, what is left at the end.
   */
  localActivities: number;
  localActivitiesAtStart: number;
  steps: BaselineStepPlan[];
  mailboxes: BaselineMailboxPlan[];
}
