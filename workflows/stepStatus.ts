/**
 * A step's side of its status (client/stepMessages.ts): the `status` query, and the reports to the
 * journey that started it. A step started by a journey
 * signals its parent when it starts to wait (with its ids and links) and ends as the parent's child,
 * so the journey's `status` shows every step's wait and outcome.
 */
import { getExternalWorkflowHandle, setCurrentDetails, setHandler, workflowInfo } from '@temporalio/workflow';
import {
  providerUnavailableSignal,
  stepReportSignal,
  stepStatusQuery,
  type ProviderError,
  type StepStatus,
} from '../client/stepMessages';
import type { StepState } from '../client/stepState';
import { currentDetails } from '../client/workflowMetadata';

export const terminalStates: readonly StepState[] = ['completed', 'failed', 'expired', 'needs_attention', 'cancelled'];

const copy = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

/** What the parent must hear about: a change of state, provider ids or links. Reasons and details ride along. */
const reportable = (s: StepStatus<unknown>) => JSON.stringify([s.state, s.providerIds, s.links ?? null]);

/** A step's status, its `status` query, and `update()`, which reports the change to the parent journey. */
export function trackStep<Detail>(stepKey: string | undefined) {
  const status: StepStatus<Detail> = { state: 'running', providerIds: {}, lastEvent: null, reason: null, detail: null };
  setHandler(stepStatusQuery, () => status);
  const parent = workflowInfo().parent;
  // Only reportable changes are signalled (a cosmetic `update({ reason })` adds no command); the
  // parent gets the whole status with each.
  let seq = 0;
  let lastReported = reportable(status);
  const report = () => {
    if (!parent || !stepKey) return;
    // The journey hears of a step while it waits (for an applicant, an operator or the provider:
    // the ids and links someone acts on), and of its end through the child's result. The short
    // `running` moments in between would buy a signal and two workflow tasks each.
    if (status.state !== 'waiting') return;
    const now = reportable(status);
    if (now === lastReported) return;
    lastReported = now;
    // Best effort: a parent that has closed needs no news.
    void getExternalWorkflowHandle(parent.workflowId)
      .signal(stepReportSignal, { stepKey, seq: ++seq, status: copy(status) as StepStatus })
      .catch(() => undefined);
  };
  const update = (changes: Partial<StepStatus<Detail>> = {}): StepStatus<Detail> => {
    Object.assign(status, changes);
    setCurrentDetails(currentDetails(status.state, status.reason));
    report();
    return status;
  };
  const finish = (
    state: StepState,
    reason: string | null,
    detail?: Detail,
    error?: ProviderError,
  ): StepStatus<Detail> => {
    outage = undefined;
    Object.assign(status, { state, reason, ...(detail !== undefined ? { detail } : {}), ...(error ? { error } : {}) });
    setCurrentDetails(currentDetails(state, reason));
    // No report: the journey takes the child's result as the final word.
    return copy(status);
  };
  /** What this attempt bought is finished and unusable: the journey's next attempt buys anew (a new need). */
  const spend = (): void => {
    status.needSpent = true;
  };

  // A provider call that keeps failing (activities/providerOutageReport.ts): the step waits for the
  // provider, and says so, until a call answers (`providerAnswered`, called by providerActivities).
  let outage: { state: StepState; reason: string | null; error: ProviderError | null } | undefined;
  setHandler(providerUnavailableSignal, ({ since, answer }) => {
    if (status.state !== 'running' && status.state !== 'waiting') return;
    outage ??= { state: status.state, reason: status.reason, error: status.error ?? null };
    update({
      state: 'waiting',
      reason: `provider unavailable since ${since}; its last answer: ${answer.message}`,
      error: answer,
    });
  });
  const providerAnswered = (): void => {
    if (!outage) return;
    const before = outage;
    outage = undefined;
    update(before);
  };
  return { status, update, finish, spend, providerAnswered };
}
