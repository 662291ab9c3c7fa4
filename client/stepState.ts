/** The states of a journey step, as the `status` query reports them. */
export const stepStates = [
  'pending',
  'running',
  'waiting',
  'needs_attention',
  'completed',
  'waived',
  'failed',
  'expired',
  'cancelled',
] as const;
export type StepState = (typeof stepStates)[number];

/** States in which a step waits for an operator's decision: retry it, or waive it. */
export const attentionStates: readonly StepState[] = ['needs_attention', 'failed', 'expired', 'cancelled'];

/** States a journey accepts as done. */
export const settledStates: readonly StepState[] = ['completed', 'waived'];

export interface LastEvent {
  eventType: string;
  receivedAt: string;
  /** Why the delivery's data failed its schema (parse `invalid-data`); absent for a valid one. */
  problems?: string[];
}
