/**
 * The evidence's events the case file sends (sender `outbox`), not the journey: an item about to go
 * stale (caseEventSweep.ts) and an item a later provider result contradicts (supersededEvidence.ts).
 */
export const evidenceEventTypes = ['case.evidence_expiring', 'case.evidence_superseded'] as const;
export type EvidenceEventType = (typeof evidenceEventTypes)[number];
