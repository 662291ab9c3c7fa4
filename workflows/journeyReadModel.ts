/**
 * The journey's state into the case file's read model, which the API, the console and the CLI read
 * instead of querying the journey. One write per change the main loop sees (a status equal to the
 * last one queued is not written again), sent in order and one at a time, each as an activity on
 * the case events' task queue in a non-cancellable scope, like the LOS events and for the same
 * reasons (journeyNotifier.ts); the main loop does not wait for them. Every state reaches the
 * case file in order, so what it derives from each change (a step's expiry, a wait on the
 * applicant, the funnel's transitions) sees every one.
 *
 * A write carries the run's top-level state and only the steps that changed since the write before
 * it: a run's first write has them all (`allSteps`), and the store merges each later one onto the
 * row (caseReadModel.ts). When a write is not taken (given up on, or refused because the row is not
 * its run's: a reset run knows what the run before it wrote), the next write carries every step; a
 * refused write with none after it is sent again so.
 *
 * `drain()` before the journey closes: a closed workflow's activities never run.
 */
import { CancellationScope, condition, proxyActivities, workflowInfo } from '@temporalio/workflow';
import type { Activities } from '../activities';
import type { JourneyStateWrite } from '../case-file/caseReadModel';
import type { JourneyStatus } from '../client/journeyMessages';
import { caseEventsTaskQueue } from '../case-events/caseEventsTaskQueue';
import { activityOptions } from './activityOptions';

type Write = Pick<Activities, 'writeCaseState'>;

/** RUNNING while the journey is open; how its run ends once it closes. */
export type RunStatus = JourneyStateWrite['runStatus'];

/** The state a write leaves the row in: each step's JSON, and the top-level fields'. */
interface RowState {
  steps: Map<string, string>;
  top: string;
}

/** A write waiting for its turn, with the state it leaves the row in. */
interface QueuedWrite {
  write: JourneyStateWrite;
  state: RowState;
}

export class JourneyReadModel {
  private version = 0;
  private lastState: string | null = null;
  private stateSince = '';
  /** The row as the last write queued leaves it; unset until a write of every step is queued. */
  private queuedState?: RowState;
  private readonly queue: QueuedWrite[] = [];
  /** True from a write's start until the queue is empty. */
  private writing = false;
  /** On the case events' task queue: a slow case file never takes the provider calls' slots. */
  private readonly durably = proxyActivities<Write>({
    ...activityOptions.readModel,
    taskQueue: caseEventsTaskQueue(workflowInfo().taskQueue),
  }).writeCaseState;

  /** True while a write is out or queued. */
  get unwritten(): boolean {
    return this.writing;
  }

  write(status: JourneyStatus, runStatus: RunStatus = 'RUNNING'): void {
    const queued = this.changes(status, runStatus);
    if (!queued) return;
    this.queue.push(queued);
    this.queuedState = queued.state;
    if (!this.writing) void this.writeQueued();
  }

  async drain(): Promise<void> {
    await condition(() => !this.writing);
  }

  private async writeQueued(): Promise<void> {
    this.writing = true;
    try {
      for (let next = this.queue.shift(); next; next = this.queue.shift()) {
        const outcome = await this.send(next.write);
        if (outcome === 'taken') continue;
        // The row does not hold what this write left it in: the next write carries every step.
        const following = this.queue[0] ?? (outcome === 'refused' ? this.requeued(next) : undefined);
        if (following) withEveryStep(following);
        else this.queuedState = undefined;
      }
    } finally {
      this.writing = false;
    }
  }

  /**
   * Given up only after the activity's 7 days: the journey never fails over its read model. The
   * store answers false for a write of some steps when the row is not its run's (refused), and for
   * a write of every step only when the row is newer (nothing to write).
   */
  private async send(write: JourneyStateWrite): Promise<'taken' | 'refused' | 'givenUp'> {
    const changed = await CancellationScope.nonCancellable(() => this.durably(write)).catch(() => undefined);
    if (changed === undefined) return 'givenUp';
    return changed || write.allSteps ? 'taken' : 'refused';
  }

  /** A refused write again, under a new version, when no write follows it. */
  private requeued(refused: QueuedWrite): QueuedWrite {
    const again = { write: { ...refused.write, version: ++this.version }, state: refused.state };
    this.queue.push(again);
    return again;
  }

  /** The write of what changed since the last write queued; none when nothing did. */
  private changes(status: JourneyStatus, runStatus: RunStatus): QueuedWrite | undefined {
    if (status.state !== this.lastState) {
      this.lastState = status.state;
      this.stateSince = new Date(Date.now()).toISOString();
    }
    const state: RowState = { steps: new Map(), top: '' };
    const steps: JourneyStateWrite['steps'] = {};
    for (const [key, step] of Object.entries(status.steps)) {
      const json = JSON.stringify(step);
      state.steps.set(key, json);
      // A copy: the status keeps changing while the write waits for its turn.
      if (this.queuedState?.steps.get(key) !== json)
        steps[key] = JSON.parse(json) as JourneyStateWrite['steps'][string];
    }
    const top = {
      state: status.state,
      runStatus,
      reasons: [...status.reasons],
      operatorDeadline: status.operatorDeadline ?? null,
      stateSince: this.stateSince,
    };
    state.top = JSON.stringify(top);
    if (Object.keys(steps).length === 0 && state.top === this.queuedState?.top) return undefined;
    const { workflowId, runId, runStartTime } = workflowInfo();
    const write: JourneyStateWrite = {
      caseId: status.caseId,
      workflowId,
      runId,
      runStartedAt: runStartTime.toISOString(),
      version: ++this.version,
      steps,
      allSteps: this.queuedState === undefined,
      ...top,
    };
    return { write, state };
  }
}

/** Turns a queued write into one of every step, as the row stands once it is taken. */
function withEveryStep(queued: QueuedWrite): void {
  const steps = [...queued.state.steps].map(([key, json]) => [key, JSON.parse(json) as unknown]);
  queued.write.steps = Object.fromEntries(steps) as JourneyStateWrite['steps'];
  queued.write.allSteps = true;
}
