/**
 * The status every step reports (DESIGN.md §4, contract of the `status` query): its state, the
 * provider ids it works with, the last event seen, the reason for any non-completed state, and a
 * step-specific detail (a picklist, accounts read, document outcomes). A step started by a journey
 * signals each change to its parent, so the journey's `status` is always current.
 */
import { defineQuery, defineSignal, getExternalWorkflowHandle, setHandler, workflowInfo } from '@temporalio/workflow';
import type { LastEvent, StepState } from './stepState';

export interface StepStatus<Detail = unknown> {
  state: StepState;
  providerIds: Record<string, string>;
  lastEvent: LastEvent | null;
  reason: string | null;
  detail: Detail | null;
}

export interface StepReport {
  stepKey: string;
  /** Reports are signals sent without waiting, and may arrive out of order: the newest wins. */
  seq: number;
  status: StepStatus;
}

export const stepStatusQuery = defineQuery<StepStatus>('status');
export const stepReportSignal = defineSignal<[StepReport]>('stepReport');

export const terminalStates: readonly StepState[] = ['completed', 'failed', 'expired', 'needs_attention', 'cancelled'];

/** A step's status, its `status` query, and `update()`, which reports the change to the parent journey. */
export function trackStep<Detail>(stepKey: string | undefined) {
  const status: StepStatus<Detail> = { state: 'running', providerIds: {}, lastEvent: null, reason: null, detail: null };
  setHandler(stepStatusQuery, () => status);
  const parent = workflowInfo().parent;
  let seq = 0;
  const update = (changes: Partial<StepStatus<Detail>> = {}): StepStatus<Detail> => {
    Object.assign(status, changes);
    if (parent && stepKey) {
      // Best effort: a parent that has closed needs no news.
      void getExternalWorkflowHandle(parent.workflowId)
        .signal(stepReportSignal, { stepKey, seq: ++seq, status: JSON.parse(JSON.stringify(status)) as StepStatus })
        .catch(() => undefined);
    }
    return status;
  };
  const finish = (state: StepState, reason: string | null, detail?: Detail): StepStatus<Detail> =>
    JSON.parse(JSON.stringify(update({ state, reason, ...(detail !== undefined ? { detail } : {}) }))) as StepStatus<Detail>;
  return { status, update, finish };
}
