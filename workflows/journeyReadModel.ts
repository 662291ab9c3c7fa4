/**
 * The journey's state into the case file's read model, which the API, the console and
 * the CLI read instead of querying the journey. One write per change the main loop sees: a status
 * equal to the last one written is not written again. Sent without waiting, each in a
 * non-cancellable scope, as an activity on the case events' task queue, like the LOS events and for
 * the same reasons (journeyNotifier.ts). Writes can
 * land out of order; each carries the run's start and a version, and the store keeps the newest.
 * `drain()` before the journey closes: a closed workflow's activities never run.
 */
import { CancellationScope, proxyActivities, workflowInfo } from '@temporalio/workflow';
import type { Activities } from '../activities';
import type { JourneyStateWrite } from '../case-file/caseReadModel';
import type { JourneyStatus } from '../client/journeyMessages';
import { caseEventsTaskQueue } from '../case-events/caseEventsTaskQueue';
import { activityOptions } from './activityOptions';

type Write = Pick<Activities, 'writeCaseState'>;

/** RUNNING while the journey is open; how its run ends once it closes. */
export type RunStatus = JourneyStateWrite['runStatus'];

export class JourneyReadModel {
  private version = 0;
  private lastWritten = '';
  private lastState: string | null = null;
  private stateSince = '';
  private readonly pending: Promise<unknown>[] = [];
  /** Writes not yet taken (or given up on). */
  unwritten = 0;
  /** On the case events' task queue: a slow case file never takes the provider calls' slots. */
  private readonly durably = proxyActivities<Write>({
    ...activityOptions.readModel,
    taskQueue: caseEventsTaskQueue(workflowInfo().taskQueue),
  }).writeCaseState;

  write(status: JourneyStatus, runStatus: RunStatus = 'RUNNING'): void {
    const snapshot = JSON.stringify([status, runStatus]);
    if (snapshot === this.lastWritten) return;
    this.lastWritten = snapshot;
    const now = new Date(Date.now()).toISOString();
    if (status.state !== this.lastState) [this.lastState, this.stateSince] = [status.state, now];
    const { workflowId, runId, runStartTime } = workflowInfo();
    const write: JourneyStateWrite = {
      caseId: status.caseId,
      workflowId,
      runId,
      runStartedAt: runStartTime.toISOString(),
      version: ++this.version,
      state: status.state,
      runStatus,
      // A copy: the status keeps changing while the write waits for its turn.
      steps: JSON.parse(JSON.stringify(status.steps)) as JourneyStateWrite['steps'],
      reasons: [...status.reasons],
      operatorDeadline: status.operatorDeadline ?? null,
      stateSince: this.stateSince,
    };
    // Given up only after the activity's 7 days: the journey never fails over its read model.
    this.unwritten++;
    this.pending.push(
      CancellationScope.nonCancellable(() => this.durably(write))
        .catch(() => undefined)
        .finally(() => this.unwritten--),
    );
  }

  async drain(): Promise<void> {
    await Promise.all(this.pending);
  }
}
