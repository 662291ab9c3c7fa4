/**
 * The journey's state into the case file's read model, which the API, the console and the CLI read
 * instead of querying the journey. One write at a time, as an activity on the case events' task
 * queue in a non-cancellable scope, like the LOS events and for the same reasons
 * (journeyNotifier.ts); the main loop does not wait for it. Changes made while a write is out go
 * together in the next one, built from the status as it then stands.
 *
 * A write carries the run's top-level state and only the steps that differ from what the case
 * file last took: a run's first write has them all, and a write that was given up on leaves its
 * steps to the next. Writes of a run land in order, so the store merges them onto the row
 * (caseReadModel.ts). The store refuses such a write for a row that is not its run's (a reset run
 * knows what the run before it wrote): the journey then writes every step.
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

/** A write ready to send, with what the case file holds once it takes it. */
interface PreparedWrite {
  write: JourneyStateWrite;
  stepsTaken: Map<string, string>;
  topTaken: string;
}

export class JourneyReadModel {
  private version = 0;
  private lastState: string | null = null;
  private stateSince = '';
  /** Each step as the case file last took it (its JSON); empty until the run's first write. */
  private stepsTaken = new Map<string, string>();
  /** The top-level fields as the case file last took them. */
  private topTaken = '';
  /** The status to write once the write out has ended. */
  private wanted?: { status: JourneyStatus; runStatus: RunStatus };
  /** True from a write's start until nothing more is wanted. */
  private writing = false;
  /** On the case events' task queue: a slow case file never takes the provider calls' slots. */
  private readonly durably = proxyActivities<Write>({
    ...activityOptions.readModel,
    taskQueue: caseEventsTaskQueue(workflowInfo().taskQueue),
  }).writeCaseState;

  /** True while a write is out or wanted. */
  get unwritten(): boolean {
    return this.writing;
  }

  write(status: JourneyStatus, runStatus: RunStatus = 'RUNNING'): void {
    if (status.state !== this.lastState) {
      this.lastState = status.state;
      this.stateSince = new Date(Date.now()).toISOString();
    }
    this.wanted = { status, runStatus };
    if (!this.writing) void this.writeWanted();
  }

  async drain(): Promise<void> {
    await condition(() => !this.writing);
  }

  /** Writes what is wanted until nothing is; clears `writing` even when nothing had changed. */
  private async writeWanted(): Promise<void> {
    this.writing = true;
    try {
      for (let wanted = this.wanted; wanted; wanted = this.wanted) {
        this.wanted = undefined;
        const prepared = this.prepare(wanted.status, wanted.runStatus);
        if (prepared && (await this.send(prepared)) === 'allStepsAsked') this.wanted ??= wanted;
      }
    } finally {
      this.writing = false;
    }
  }

  /** Given up only after the activity's 7 days: the journey never fails over its read model. */
  private async send(prepared: PreparedWrite): Promise<'taken' | 'givenUp' | 'allStepsAsked'> {
    const changed = await CancellationScope.nonCancellable(() => this.durably(prepared.write)).then(
      (answer) => answer,
      () => undefined,
    );
    if (changed === undefined) return 'givenUp';
    if (!changed && !prepared.write.allSteps) {
      this.stepsTaken = new Map();
      this.topTaken = '';
      return 'allStepsAsked';
    }
    this.stepsTaken = prepared.stepsTaken;
    this.topTaken = prepared.topTaken;
    return 'taken';
  }

  /** The write of what differs from what the case file took; none when nothing does. */
  private prepare(status: JourneyStatus, runStatus: RunStatus): PreparedWrite | undefined {
    const stepsTaken = new Map<string, string>();
    const steps: JourneyStateWrite['steps'] = {};
    for (const [key, step] of Object.entries(status.steps)) {
      const json = JSON.stringify(step);
      stepsTaken.set(key, json);
      // A copy: the status keeps changing while the write waits for its turn.
      if (this.stepsTaken.get(key) !== json) steps[key] = JSON.parse(json) as JourneyStateWrite['steps'][string];
    }
    const top = {
      state: status.state,
      runStatus,
      reasons: [...status.reasons],
      operatorDeadline: status.operatorDeadline ?? null,
      stateSince: this.stateSince,
    };
    const topTaken = JSON.stringify(top);
    if (Object.keys(steps).length === 0 && topTaken === this.topTaken) return undefined;
    const { workflowId, runId, runStartTime } = workflowInfo();
    const write: JourneyStateWrite = {
      caseId: status.caseId,
      workflowId,
      runId,
      runStartedAt: runStartTime.toISOString(),
      version: ++this.version,
      steps,
      allSteps: this.stepsTaken.size === 0,
      ...top,
    };
    return { write, stepsTaken, topTaken };
  }
}
