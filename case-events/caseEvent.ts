/**
 * The events the LOS receives when a journey changes (types only: the journey imports them, so
 * nothing here may touch Node). Each carries its business identity (`eventKey`), from which the
 * event id is derived: a redelivery, or the same event sent again after a reset or a replay,
 * carries the same id, so the receiver can dedupe.
 */
export const caseEventTypes = [
  'case.step_completed',
  'case.needs_attention',
  'case.completed',
  'case.cancelled',
  'case.evidence_refreshed',
] as const;
export type CaseEventType = (typeof caseEventTypes)[number];

export { evidenceEventTypes, type EvidenceEventType } from '../case-file/evidenceEventTypes';

export interface CaseEventInput {
  type: CaseEventType;
  /**
   * The case, the type and what the event is about (workflows/journeyNotifier.ts); the id is
   * derived from it. Absent from events sent before it existed: their id comes from the run.
   */
  eventKey?: string;
  caseId: string;
  /** The lender's own reference for the case, when it was started with one (the journey input's `reference`). */
  reference?: string;
  workflowId: string;
  runId: string;
  /** 1, 2, … within the run, in the order the journey saw the changes. */
  sequence: number;
  /** Workflow time of the change (ISO 8601). */
  occurredAt: string;
  /** The journey's state after the change. */
  state: string;
  /** For `case.step_completed`: the step. */
  step?: { key: string; attempt: number };
  /** One line per step that is not completed or waived (no applicant data: states and provider messages). */
  reasons: string[];
  /** For `case.evidence_refreshed`: the evidence kind renewed (client/evidenceValidity.ts). */
  kind?: string;
  /** For `case.evidence_refreshed`: why it was renewed (`evidence stale: creditReport valid until …`). */
  reason?: string;
  /** For `case.evidence_refreshed`: when the renewed evidence goes stale (ISO 8601). */
  validUntil?: string;
}
