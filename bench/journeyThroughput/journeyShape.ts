/**
 * What a set of journeys made Temporal do, read from the histories of every workflow run they
 * touched: workflow starts (by a client, as children, by signalWithStart), activities, signals
 * (between workflows, and from clients), timers, events and workflow tasks, per journey. The same
 * reading serves the real journeys and the baseline's, so the two can be compared line by line;
 * and from a real journey it derives the plan the baseline follows (baselinePlan.ts).
 *
 * A run belongs to a journey when it is the journey, a child of it, or a workflow started by
 * signalWithStart that signalled one of its children (a mailbox: the real resource workflows).
 */
import type { Client } from '@temporalio/client';
import { temporal } from '@temporalio/proto';
import { isLocalActivityMarker } from '../journeyCost/billableActions';
import { historyCost, type Cost } from '../journeyCost/historyCost';
import type { BaselineJourneyPlan } from './baselinePlan';
import type { KeptHistory } from './replayCpu';
import { timeSpent, type TimeSpent } from './timeSpent';

const T = temporal.api.enums.v1.EventType;
type Event = temporal.api.history.v1.IHistoryEvent;

export interface RunSummary {
  workflowId: string;
  workflowType: string;
  parentId: string | null;
  startedBy: 'client' | 'child' | 'signalWithStart';
  cost: Cost;
  signalsFromWorkflows: number;
  signalsFromClients: number;
  /** Workflow ids this run signalled. */
  signalTargets: string[];
  /** For a parent: each child's workflow id and the wave (the workflow task) that started it. */
  childWaves: Map<string, number>;
  /** Activities scheduled before the first timer started (all of them when none did). */
  activitiesBeforeFirstTimer: number;
  /** Local activities recorded before the first child completed (all of them when none did). */
  localActivitiesBeforeFirstChildCompleted: number;
}

export function summarise(workflowId: string, events: readonly Event[]): RunSummary {
  const started = events[0]?.workflowExecutionStartedEventAttributes;
  const parentId = started?.parentWorkflowExecution?.workflowId ?? null;
  const signalledAtStart = events[1]?.eventType === T.EVENT_TYPE_WORKFLOW_EXECUTION_SIGNALED;
  const summary: RunSummary = {
    workflowId,
    workflowType: started?.workflowType?.name ?? '?',
    parentId,
    startedBy: parentId ? 'child' : signalledAtStart ? 'signalWithStart' : 'client',
    cost: historyCost(events),
    signalsFromWorkflows: 0,
    signalsFromClients: 0,
    signalTargets: [],
    childWaves: new Map(),
    activitiesBeforeFirstTimer: 0,
    localActivitiesBeforeFirstChildCompleted: 0,
  };
  const waveOfTask = new Map<string, number>();
  let timerSeen = false;
  let childCompleted = false;
  for (const event of events) {
    switch (event.eventType) {
      case T.EVENT_TYPE_WORKFLOW_EXECUTION_SIGNALED:
        if (event.workflowExecutionSignaledEventAttributes?.externalWorkflowExecution?.workflowId)
          summary.signalsFromWorkflows++;
        else summary.signalsFromClients++;
        break;
      case T.EVENT_TYPE_SIGNAL_EXTERNAL_WORKFLOW_EXECUTION_INITIATED: {
        const target = event.signalExternalWorkflowExecutionInitiatedEventAttributes?.workflowExecution?.workflowId;
        if (target) summary.signalTargets.push(target);
        break;
      }
      case T.EVENT_TYPE_START_CHILD_WORKFLOW_EXECUTION_INITIATED: {
        const attributes = event.startChildWorkflowExecutionInitiatedEventAttributes;
        const task = String(attributes?.workflowTaskCompletedEventId ?? '');
        if (!waveOfTask.has(task)) waveOfTask.set(task, waveOfTask.size);
        if (attributes?.workflowId) summary.childWaves.set(attributes.workflowId, waveOfTask.get(task) as number);
        break;
      }
      case T.EVENT_TYPE_TIMER_STARTED:
        timerSeen = true;
        break;
      case T.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED:
        if (!timerSeen) summary.activitiesBeforeFirstTimer++;
        break;
      case T.EVENT_TYPE_CHILD_WORKFLOW_EXECUTION_COMPLETED:
        childCompleted = true;
        break;
      case T.EVENT_TYPE_MARKER_RECORDED:
        if (!childCompleted && isLocalActivityMarker(event)) summary.localActivitiesBeforeFirstChildCompleted++;
        break;
      default:
        break;
    }
  }
  return summary;
}

/**
 * Every run started at or after `since`, summarised from its history; its timings added to `spent`
 * and its history to `kept` when given.
 */
export async function summariseRunsSince(
  client: Client,
  since: Date,
  spent?: TimeSpent,
  kept?: KeptHistory[],
): Promise<RunSummary[]> {
  const runs: { workflowId: string; runId: string }[] = [];
  for await (const execution of client.workflow.list()) {
    if (execution.startTime >= since) runs.push({ workflowId: execution.workflowId, runId: execution.runId });
  }
  const summaries: RunSummary[] = [];
  // A few at a time: the dev server shares the machine with everything else.
  for (let i = 0; i < runs.length; i += 16) {
    const batch = runs.slice(i, i + 16);
    summaries.push(
      ...(await Promise.all(
        batch.map(async (run) => {
          const history = await client.workflow.getHandle(run.workflowId, run.runId).fetchHistory();
          kept?.push({ workflowId: run.workflowId, history });
          const events = history.events ?? [];
          const summary = summarise(run.workflowId, events);
          if (spent) timeSpent(summary.workflowType, events, spent);
          return summary;
        }),
      )),
    );
  }
  return summaries;
}

/** One journey's runs: the journey, its children, and the mailboxes that signalled its children. */
export interface JourneyRuns {
  journey: RunSummary;
  children: RunSummary[];
  mailboxes: RunSummary[];
}

/** The histories of the journeys' runs. */
export function historiesOf(kept: readonly KeptHistory[], journeys: readonly JourneyRuns[]): KeptHistory[] {
  const ids = new Set(journeys.flatMap((j) => [j.journey, ...j.children, ...j.mailboxes]).map((r) => r.workflowId));
  return kept.filter((k) => ids.has(k.workflowId));
}

export function journeysOf(summaries: readonly RunSummary[], journeyIds: readonly string[]): JourneyRuns[] {
  const wanted = new Set(journeyIds);
  return summaries
    .filter((s) => wanted.has(s.workflowId) && s.parentId === null)
    .map((journey) => {
      const children = summaries.filter((s) => s.parentId === journey.workflowId);
      const childIds = new Set(children.map((c) => c.workflowId));
      const mailboxes = summaries.filter(
        (s) => s.startedBy === 'signalWithStart' && s.signalTargets.some((t) => childIds.has(t)),
      );
      return { journey, children, mailboxes };
    });
}

/** Per-journey means of what Temporal was asked to do. */
export interface ShapeFigures {
  journeys: number;
  clientStarts: number;
  childStarts: number;
  signalWithStartStarts: number;
  activities: number;
  localActivities: number;
  signalsBetweenWorkflows: number;
  signalsFromClients: number;
  timers: number;
  events: number;
  workflowTasks: number;
}

export function shapeFigures(journeys: readonly JourneyRuns[]): ShapeFigures {
  const runs = journeys.flatMap((j) => [j.journey, ...j.children, ...j.mailboxes]);
  const n = Math.max(1, journeys.length);
  const mean = (pick: (r: RunSummary) => number) =>
    Math.round((runs.reduce((sum, r) => sum + pick(r), 0) / n) * 10) / 10;
  return {
    journeys: journeys.length,
    clientStarts: mean((r) => (r.startedBy === 'client' ? 1 : 0)),
    childStarts: mean((r) => (r.startedBy === 'child' ? 1 : 0)),
    signalWithStartStarts: mean((r) => (r.startedBy === 'signalWithStart' ? 1 : 0)),
    activities: mean((r) => r.cost.activities),
    localActivities: mean((r) => r.cost.localActivities),
    signalsBetweenWorkflows: mean((r) => r.cost.signalsSent),
    signalsFromClients: mean((r) => r.signalsFromClients),
    timers: mean((r) => r.cost.timers),
    events: mean((r) => r.cost.events),
    workflowTasks: mean((r) => r.cost.workflowTasks),
  };
}

/**
 * The baseline plan for one real journey, with placeholder ids (`{journey}` is replaced per
 * baseline journey by `planFor`). A mailbox's subscribers each subscribed once (a client signal);
 * its other client signals are deliveries. A step's activities exclude its subscriptions; its
 * signals to mailboxes are its leaving them when it ends.
 */
export function planOf(runs: JourneyRuns): BaselineJourneyPlan {
  const mailboxIds = new Map(runs.mailboxes.map((m, i) => [m.workflowId, `{journey}/mailbox-${i}`]));
  const steps = runs.children.map((child, i) => {
    const subscribed = runs.mailboxes
      .filter((m) => m.signalTargets.includes(child.workflowId))
      .map((m) => mailboxIds.get(m.workflowId) as string);
    const activities = Math.max(0, child.cost.activities - subscribed.length);
    const before = Math.min(activities, Math.max(0, child.activitiesBeforeFirstTimer - subscribed.length));
    const left = child.signalTargets.filter((t) => mailboxIds.has(t)).map((t) => mailboxIds.get(t) as string);
    return {
      workflowId: `{journey}/step-${i}`,
      wave: runs.journey.childWaves.get(child.workflowId) ?? 0,
      activitiesBefore: child.cost.timers > 0 ? before : activities,
      activitiesAfter: child.cost.timers > 0 ? activities - before : 0,
      reports: child.signalTargets.filter((t) => t === runs.journey.workflowId).length,
      mailboxes: subscribed,
      leaves: left,
      forwardsAwaited: subscribed.length > 0 ? Math.max(1, child.signalsFromWorkflows) : 0,
    };
  });
  const mailboxes = runs.mailboxes.map((m) => {
    const subscribers = new Set(m.signalTargets).size;
    const deliveries = Math.max(0, m.signalsFromClients - subscribers);
    return {
      workflowId: mailboxIds.get(m.workflowId) as string,
      deliveries,
      forwarded: Math.min(deliveries, Math.round(m.signalTargets.length / Math.max(1, subscribers))),
    };
  });
  const { journey } = runs;
  return {
    activities: journey.cost.activities,
    localActivities: journey.cost.localActivities,
    localActivitiesAtStart: Math.min(journey.cost.localActivities, journey.localActivitiesBeforeFirstChildCompleted),
    steps,
    mailboxes,
  };
}

/** The plan most of the journeys share (timing can vary a count; the shape itself should not). */
export function typicalPlan(journeys: readonly JourneyRuns[]): BaselineJourneyPlan {
  const counts = new Map<string, number>();
  for (const j of journeys) {
    const key = JSON.stringify(planOf(j));
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  const [key] = [...counts.entries()].sort((a, b) => b[1] - a[1])[0] ?? [];
  if (!key) throw new Error('no journey to derive the baseline plan from');
  return JSON.parse(key) as BaselineJourneyPlan;
}

/** The plan with its ids made concrete for the baseline journey `journeyId`. */
export function planFor(template: BaselineJourneyPlan, journeyId: string): BaselineJourneyPlan {
  return JSON.parse(JSON.stringify(template).replaceAll('{journey}', journeyId)) as BaselineJourneyPlan;
}
