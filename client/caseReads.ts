/**
 * Reading cases from the case file's read model instead of asking Temporal: a case's
 * status as the journey last wrote it (a closed one's final state included, with no replay and no
 * worker), and lists with the queue's filters. The shapes are those the Temporal reads answered.
 */
import type { CaseListQuery } from '../case-file/caseQueue';
import type { CaseRecord } from '../case-file/caseReadModel';
import type { CaseFileStore } from '../case-file/store';
import type { JourneyState, JourneyStatus, JourneyStep } from './journeyMessages';

/**
 * `assignee`: who owns the case (client/caseAssignment.ts); `reference`: the lender's own id of the
 * case, null when it has none. Only the read model knows them.
 */
export type CaseStatusView = JourneyStatus & {
  runStatus: string;
  runId: string;
  assignee: string | null;
  reference: string | null;
};

/** A case in a list: its journey's run and state, and what the queue shows (whose case, what is wrong, since when). */
export interface CaseListRow {
  caseId: string;
  workflowId: string;
  runId: string;
  state: string;
  runStatus: string;
  startedAt: string | null;
  company: string | null;
  applicants: { personId: string; name: string | null }[];
  /** The lender's own reference for the case; null: none. */
  reference: string | null;
  reasons: string[];
  waitingSince: string | null;
  operatorDeadline: string | null;
  /** The queue's deadline: the operator deadline, or sooner the expiry of a picklist wait (migration 007). */
  deadline: string | null;
  updatedAt: string;
  assignee: string | null;
}

export function statusOfRecord(record: CaseRecord): CaseStatusView {
  return {
    caseId: record.caseId,
    state: record.state as JourneyState,
    steps: record.steps as unknown as Record<string, JourneyStep>,
    reasons: record.reasons,
    operatorDeadline: record.operatorDeadline,
    runStatus: record.runStatus,
    runId: record.runId,
    assignee: record.assignee,
    reference: record.reference,
  };
}

/** The case's status from the read model, or undefined when the journey has not written one. */
export async function readCaseStatus(store: CaseFileStore, caseId: string): Promise<CaseStatusView | undefined> {
  const record = await store.caseRecord(caseId);
  return record && statusOfRecord(record);
}

export async function listCaseRows(
  store: CaseFileStore,
  query: CaseListQuery,
): Promise<{ cases: CaseListRow[]; nextPageToken: string | null }> {
  const page = await store.listCases(query);
  return { cases: page.cases.map(rowOf), nextPageToken: page.nextCursor };
}

function rowOf(r: CaseRecord): CaseListRow {
  const {
    caseId,
    workflowId,
    runId,
    state,
    runStatus,
    startedAt,
    company,
    applicants,
    reference,
    reasons,
    waitingSince,
    operatorDeadline,
    deadline,
    updatedAt,
    assignee,
  } = r;
  return {
    caseId,
    workflowId,
    runId,
    state,
    runStatus,
    startedAt,
    company,
    applicants,
    reference,
    reasons,
    waitingSince,
    operatorDeadline,
    deadline,
    updatedAt,
    assignee,
  };
}
