/**
 * The status every step reports (DESIGN.md §4, contract of the `status` query): its state, the
 * provider ids it works with, the last event seen, the reason for any non-completed state, and a
 * step-specific detail (a picklist, accounts read, document outcomes). A step started by a journey
 * signals its parent when it starts to wait (with its ids and links) and ends as the parent's child,
 * so the journey's `status` shows every step's wait and outcome.
 */
import { defineQuery, defineSignal, getExternalWorkflowHandle, setCurrentDetails, setHandler, workflowInfo } from '@temporalio/workflow';
import { leanHistories, olderPatch } from './leanHistories';
import type { LastEvent, StepState } from './stepState';
import { currentDetails } from './workflowMetadata';

/** The provider's answer when a call of the step failed for good. */
export interface ProviderError {
  /** HTTP status, or null for a network failure or a timeout. */
  status: number | null;
  message: string;
}

export interface StepStatus<Detail = unknown> {
  state: StepState;
  providerIds: Record<string, string>;
  lastEvent: LastEvent | null;
  reason: string | null;
  detail: Detail | null;
  /** Links the applicant must open (an IDV link, a bank connection link). */
  links?: Record<string, string>;
  /** Set when the step failed because of a provider call. */
  error?: ProviderError | null;
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

const copy = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

/** What the parent must hear about: a change of state, provider ids or links. Reasons and details ride along. */
const reportable = (s: StepStatus<unknown>) => JSON.stringify([s.state, s.providerIds, s.links ?? null]);

/** A step's status, its `status` query, and `update()`, which reports the change to the parent journey. */
export function trackStep<Detail>(stepKey: string | undefined) {
  const status: StepStatus<Detail> = { state: 'running', providerIds: {}, lastEvent: null, reason: null, detail: null };
  setHandler(stepStatusQuery, () => status);
  const parent = workflowInfo().parent;
  // Before this patch every update was signalled, so adding a cosmetic `update({ reason })` added a
  // command and broke the replay of open journeys. Now only reportable changes (and the finish)
  // are signalled; the parent gets the whole status with each.
  const lean = leanHistories();
  const onChangeOnly = olderPatch('step-reports-on-change');
  let seq = 0;
  let lastReported = reportable(status);
  const report = (force: boolean) => {
    if (!parent || !stepKey) return;
    // Lean: the journey hears of a step while it waits (for an applicant, an operator or the
    // provider: the ids and links someone acts on), and of its end through the child's result.
    // The short `running` moments in between bought a signal and two workflow tasks each.
    if (lean && status.state !== 'waiting') return;
    const now = reportable(status);
    if (onChangeOnly && !force && now === lastReported) return;
    lastReported = now;
    // Best effort: a parent that has closed needs no news.
    void getExternalWorkflowHandle(parent.workflowId)
      .signal(stepReportSignal, { stepKey, seq: ++seq, status: copy(status) as StepStatus })
      .catch(() => undefined);
  };
  const update = (changes: Partial<StepStatus<Detail>> = {}): StepStatus<Detail> => {
    Object.assign(status, changes);
    setCurrentDetails(currentDetails(status.state, status.reason));
    report(false);
    return status;
  };
  const finish = (state: StepState, reason: string | null, detail?: Detail, error?: ProviderError): StepStatus<Detail> => {
    Object.assign(status, { state, reason, ...(detail !== undefined ? { detail } : {}), ...(error ? { error } : {}) });
    setCurrentDetails(currentDetails(state, reason));
    // The journey takes the child's result as the final word; a finish report only matters to a
    // parent that is not a journey (or an old one), so it goes out only where it always did.
    if (!onChangeOnly) report(true);
    return copy(status);
  };
  return { status, update, finish };
}
