/**
 * The journey's events to the LOS (`notifyLos`, case-events/). Sent without waiting, so
 * a slow or absent LOS never holds a journey up; each in a non-cancellable scope, so a cancelled
 * journey still reports what happened. `drain()` before the journey closes: the activities of a
 * closed workflow never run. A local activity's one try first (one marker event), the activity
 * after it only when the LOS did not take the event.
 */
import { CancellationScope, proxyActivities, proxyLocalActivities, workflowInfo } from '@temporalio/workflow';
import type { Activities } from '../activities';
import type { CaseEventInput, CaseEventType } from '../case-events/caseEvent';
import { activityOptions } from './activityOptions';

type Notify = Pick<Activities, 'notifyLos'>;
const durably = proxyActivities<Notify>(activityOptions.notify).notifyLos;
const firstTry = proxyLocalActivities<Notify>(activityOptions.notifyFirstTry).notifyLos;

const notifyLos = (event: CaseEventInput) => firstTry(event).catch(() => durably(event));

export class JourneyNotifier {
  private sequence = 0;
  private readonly pending: Promise<unknown>[] = [];

  constructor(private readonly caseId: string) {}

  send(type: CaseEventType, state: string, reasons: string[], step?: CaseEventInput['step']): void {
    const { workflowId, runId } = workflowInfo();
    const event: CaseEventInput = {
      type,
      caseId: this.caseId,
      workflowId,
      runId,
      sequence: ++this.sequence,
      occurredAt: new Date(Date.now()).toISOString(),
      state,
      reasons: [...reasons],
      step,
    };
    // Given up only after the activity's 7 days: the journey does not fail over its LOS.
    this.pending.push(CancellationScope.nonCancellable(() => notifyLos(event)).catch(() => undefined));
  }

  async drain(): Promise<void> {
    await Promise.all(this.pending);
  }
}
