/**
 * The journey's events to the LOS (`notifyLos`, case-events/). Sent without waiting, so
 * a slow or absent LOS never holds a journey up; each in a non-cancellable scope, so a cancelled
 * journey still reports what happened. `drain()` before the journey closes: the activities of a
 * closed workflow never run. Each is an activity on the case events' own task queue
 * (case-events/caseEventsTaskQueue.ts), whose slots no provider call needs. Not a local activity:
 * one that outlives the workflow task it was scheduled in is recorded in a later task, after that
 * task's own commands, and a replay of such a history parts from it (a journey that does not
 * replay answers no query and stops at its next replay).
 *
 * Each event is known by what it says (`eventKey`), never by the run that sent it: a reset or a
 * replay that sends it again sends it under the same id, which the LOS dedupes.
 */
import { CancellationScope, proxyActivities, workflowInfo } from '@temporalio/workflow';
import type { Activities } from '../activities';
import type { CaseEventInput, CaseEventType } from '../case-events/caseEvent';
import { caseEventsTaskQueue } from '../case-events/caseEventsTaskQueue';
import { activityOptions } from './activityOptions';

type Notify = Pick<Activities, 'notifyLos'>;

/** What an event is about: a step's attempt, or the journey as a whole. */
export type EventSubject = { step: NonNullable<CaseEventInput['step']> } | { attemptsStarted: number };

export class JourneyNotifier {
  private sequence = 0;
  private readonly pending: Promise<unknown>[] = [];
  /** Events not yet taken (or given up on). */
  undelivered = 0;
  /** How often each subject's event was sent (this run, and the runs it continues): the last part of its key. */
  private readonly sent: Map<string, number>;
  private readonly durably = proxyActivities<Notify>({
    ...activityOptions.notify,
    taskQueue: caseEventsTaskQueue(workflowInfo().taskQueue),
  }).notifyLos;

  /** The lender's reference for the case, echoed in every event; absent when the case has none. */
  private readonly reference: string | undefined;

  constructor(
    private readonly caseId: string,
    counts: Record<string, number> = {},
    reference?: string,
  ) {
    this.sent = new Map(Object.entries(counts));
    // The input is checked by hand in workflow code (journeyInputCheck.ts): only a text is echoed.
    this.reference = typeof reference === 'string' && reference !== '' ? reference : undefined;
  }

  /** The counts a continued run carries on from. */
  counts(): Record<string, number> {
    return Object.fromEntries(this.sent);
  }

  /** `about`: what an evidence event says of its item (kind, reason, validUntil). */
  send(
    type: CaseEventType,
    state: string,
    reasons: string[],
    subject: EventSubject,
    about: Pick<CaseEventInput, 'kind' | 'reason' | 'validUntil'> = {},
  ): void {
    const { workflowId, runId } = workflowInfo();
    const step = 'step' in subject ? subject.step : undefined;
    const event: CaseEventInput = {
      type,
      eventKey: this.keyOf(type, subject),
      caseId: this.caseId,
      ...(this.reference === undefined ? {} : { reference: this.reference }),
      workflowId,
      runId,
      sequence: ++this.sequence,
      occurredAt: new Date(Date.now()).toISOString(),
      state,
      reasons: [...reasons],
      step,
      ...about,
    };
    // Given up only after the activity's 7 days: the journey does not fail over its LOS.
    this.undelivered++;
    this.pending.push(
      CancellationScope.nonCancellable(() => this.durably(event))
        .catch(() => undefined)
        .finally(() => this.undelivered--),
    );
  }

  /**
   * The event's business identity: the case, the type, and the step attempt it is about, or for
   * the journey's own states the number of step attempts started in all (it only grows, across
   * `journey retry` runs too), then how many times the journey sent that. Nothing of the run.
   */
  private keyOf(type: CaseEventType, subject: EventSubject): string {
    const about = 'step' in subject ? `${subject.step.key}@${subject.step.attempt}` : `${subject.attemptsStarted}`;
    const base = `${this.caseId}\n${type}\n${about}`;
    const count = (this.sent.get(base) ?? 0) + 1;
    this.sent.set(base, count);
    return `${base}\n${count}`;
  }

  async drain(): Promise<void> {
    await Promise.all(this.pending);
  }
}
