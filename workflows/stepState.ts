/** The states of a journey step (DESIGN.md §4, contract of the `status` query). */
export const stepStates = [
  'pending',
  'running',
  'waiting',
  'needs_attention',
  'completed',
  'failed',
  'expired',
  'cancelled',
] as const;
export type StepState = (typeof stepStates)[number];

export interface LastEvent {
  eventType: string;
  receivedAt: string;
}
