/**
 * What an operator does with journeys: start one from a JSON input, see its status, list journeys
 * by state, retry or waive a step and resolve a credit report picklist (Updates on the journey),
 * cancel, retry a closed journey (completed steps carried over), and replay a journey's histories
 * against the current workflow code.
 */
import type { Client } from '@temporalio/client';
import type { temporal } from '@temporalio/proto';
import { decodeFromPayloadsAtIndex } from '@temporalio/common/lib/internal-non-workflow';
import { Worker, type WorkflowBundleOption } from '@temporalio/worker';
import { resourceSubscribedBy, subscribesToResource } from '../activities/subscribingActivities';
import { resourceWorkflowId, type PicklistEntry, type ResourceKey } from '../provider';
import { JourneyCommandError } from './journeyInputFile';
import { workflowsPath } from '../worker/createWorker';
import type { CarryOver, OnboardCaseInput } from '../workflows/journeyInput';
import { journeySummary } from '../workflows/workflowMetadata';
import {
  cancelJourneySignal,
  journeyStatusQuery,
  journeyWorkflowId,
  onboardCase,
  resolveJourneyPicklistUpdate,
  retryStepUpdate,
  waiveStepUpdate,
  type JourneyStatus,
  type JourneyStep,
  type OperatorActionResult,
} from '../workflows/onboardCaseWorkflow';

export { JourneyCommandError, readJourneyInput } from './journeyInputFile';

export interface CommandContext {
  client: Client;
  taskQueue: string;
}

export async function startJourney(ctx: CommandContext, input: OnboardCaseInput): Promise<string> {
  const handle = await ctx.client.workflow.start(onboardCase, { workflowId: journeyWorkflowId(input.caseId), taskQueue: ctx.taskQueue, args: [input], staticSummary: journeySummary(input.caseId) });
  return handle.workflowId;
}

export async function journeyStatus(ctx: CommandContext, caseId: string): Promise<JourneyStatus & { runStatus: string }> {
  const handle = ctx.client.workflow.getHandle(journeyWorkflowId(caseId));
  const description = await handle.describe();
  const status = await handle.query(journeyStatusQuery);
  return { ...status, runStatus: description.status.name };
}

export async function listJourneys(ctx: CommandContext, state?: string): Promise<{ caseId: string; state: string; runStatus: string }[]> {
  const query = state ? `WorkflowType = "onboardCase" AND JourneyState = "${state.replace(/"/g, '')}"` : 'WorkflowType = "onboardCase"';
  const rows: { caseId: string; state: string; runStatus: string }[] = [];
  const seen = new Set<string>();
  for await (const w of ctx.client.workflow.list({ query })) {
    // Newest first: the first run seen of a workflow id is the case's latest (journey retry adds runs).
    if (seen.has(w.workflowId)) continue;
    seen.add(w.workflowId);
    const attributes = w.searchAttributes as Record<string, unknown[] | undefined>;
    rows.push({ caseId: String(attributes.CaseId?.[0] ?? w.workflowId), state: String(attributes.JourneyState?.[0] ?? '?'), runStatus: w.status.name });
  }
  return rows;
}

export async function resolvePicklist(ctx: CommandContext, caseId: string, providerId: string): Promise<OperatorActionResult> {
  return journeyHandle(ctx, caseId).executeUpdate(resolveJourneyPicklistUpdate, { args: [{ providerId }] });
}

export async function retryStep(ctx: CommandContext, caseId: string, step: string, reason?: string): Promise<OperatorActionResult> {
  return journeyHandle(ctx, caseId).executeUpdate(retryStepUpdate, { args: [{ step, ...(reason ? { reason } : {}) }] });
}

export async function waiveStep(ctx: CommandContext, caseId: string, step: string, reason: string): Promise<OperatorActionResult> {
  return journeyHandle(ctx, caseId).executeUpdate(waiveStepUpdate, { args: [{ step, reason }] });
}

export async function cancelJourney(ctx: CommandContext, caseId: string, reason?: string): Promise<void> {
  await journeyHandle(ctx, caseId).signal(cancelJourneySignal, { reason });
}

const journeyHandle = (ctx: CommandContext, caseId: string) => ctx.client.workflow.getHandle(journeyWorkflowId(caseId));

export interface RetryPlan {
  caseId: string;
  /** Steps taken over unchanged: no provider call. */
  carriedOver: string[];
  /** Steps that run again, each as its next attempt. */
  rerun: { step: string; attempt: number; was: string }[];
  input: OnboardCaseInput;
}

/**
 * What `journey retry` would do with a closed journey: carry every completed or waived step over,
 * run the others again as new attempts (new child ids, new idempotency keys).
 */
export async function planJourneyRetry(ctx: CommandContext, caseId: string): Promise<RetryPlan> {
  const handle = journeyHandle(ctx, caseId);
  const description = await handle.describe();
  if (description.status.name === 'RUNNING') {
    throw new JourneyCommandError(`case/${caseId} is still running: use retry-step for one step, or cancel it first`);
  }
  const input = await originalInput(ctx, caseId);
  const status = await handle.query(journeyStatusQuery);
  const carry: CarryOver = { steps: {}, attempts: {} };
  const plan: RetryPlan = { caseId, carriedOver: [], rerun: [], input };
  for (const [key, step] of Object.entries(status.steps)) {
    const attempt = step.attempt ?? 1;
    carry.attempts[key] = attempt;
    if (step.state === 'completed' || step.state === 'waived') {
      const { state, workflowId, providerIds, reason, detail, lastEvent } = step;
      carry.steps[key] = { state, attempt, workflowId, providerIds, reason, detail, lastEvent };
      plan.carriedOver.push(key);
    } else {
      plan.rerun.push({ step: key, attempt: attempt + 1, was: step.state });
    }
  }
  plan.input = { ...input, carryOver: carry };
  return plan;
}

/** Starts a new run of a closed journey (same workflow id) that carries completed steps over. */
export async function retryJourney(ctx: CommandContext, plan: RetryPlan): Promise<string> {
  const retried = await ctx.client.workflow.start(onboardCase, { workflowId: journeyWorkflowId(plan.caseId), taskQueue: ctx.taskQueue, args: [plan.input], staticSummary: journeySummary(plan.caseId) });
  return retried.firstExecutionRunId;
}

export function formatRetryPlan(plan: RetryPlan): string {
  const lines = [`case/${plan.caseId}:`];
  for (const step of plan.carriedOver) lines.push(`  carry over  ${step}`);
  for (const { step, attempt, was } of plan.rerun) lines.push(`  run again   ${step} (was ${was}; attempt ${attempt})`);
  return lines.join('\n');
}

/** The input the latest run started with, decoded with the client's data converter. */
async function originalInput(ctx: CommandContext, caseId: string): Promise<OnboardCaseInput> {
  const history = await journeyHandle(ctx, caseId).fetchHistory();
  const payloads = history.events?.[0]?.workflowExecutionStartedEventAttributes?.input?.payloads;
  if (!payloads?.length) throw new JourneyCommandError(`case/${caseId} has no recorded input to retry with`);
  return decodeFromPayloadsAtIndex<OnboardCaseInput>(ctx.client.options.loadedDataConverter, 0, payloads);
}

export interface ReplayedHistory {
  workflowId: string;
  events: number;
  error?: string;
}

/**
 * Replays a journey's history and every history it touched — each step attempt's child and every
 * resource workflow those subscribed to — against this checkout's workflow code.
 */
export async function replayJourney(ctx: CommandContext, caseId: string, workflowBundle?: WorkflowBundleOption): Promise<ReplayedHistory[]> {
  const histories = await journeyHistories(ctx, caseId);
  const results: ReplayedHistory[] = [];
  const list = [...histories].map(([workflowId, history]) => ({ workflowId, history }));
  // The histories are encrypted: the replay decodes them with the client's data converter.
  const options = { ...(workflowBundle ? { workflowBundle } : { workflowsPath }), dataConverter: ctx.client.options.dataConverter };
  for await (const result of Worker.runReplayHistories(options, list)) {
    results.push({ workflowId: result.workflowId, events: histories.get(result.workflowId)?.events?.length ?? 0, ...(result.error ? { error: String(result.error) } : {}) });
  }
  return results;
}

/** The journey's history and every history it touched, by workflow id (the journey first). */
export async function journeyHistories(ctx: CommandContext, caseId: string): Promise<Map<string, temporal.api.history.v1.IHistory>> {
  const histories = new Map<string, temporal.api.history.v1.IHistory>();
  const pending = [journeyWorkflowId(caseId)];
  while (pending.length > 0) {
    const workflowId = pending.shift() as string;
    if (histories.has(workflowId)) continue;
    // A step that never started (affordability behind a failed banking) has no history.
    const history = await ctx.client.workflow.getHandle(workflowId).fetchHistory().catch(() => undefined);
    if (!history) continue;
    histories.set(workflowId, history);
    pending.push(...(await touchedWorkflows(ctx, history)));
  }
  return histories;
}

/**
 * Children a history started and resource workflows it subscribed to: through `subscribeToResource`,
 * or (lean histories) through the activity that created the resource, read from its input and result.
 */
async function touchedWorkflows(ctx: CommandContext, history: temporal.api.history.v1.IHistory): Promise<string[]> {
  const found: string[] = [];
  const converter = ctx.client.options.loadedDataConverter;
  const decode = (payloads: temporal.api.common.v1.IPayloads | null | undefined) => (payloads?.payloads?.length ? decodeFromPayloadsAtIndex<unknown>(converter, 0, payloads.payloads) : undefined);
  const scheduled = new Map<string, temporal.api.history.v1.IActivityTaskScheduledEventAttributes>();
  for (const event of history.events ?? []) {
    const child = event.startChildWorkflowExecutionInitiatedEventAttributes?.workflowId;
    if (child) found.push(child);
    const activity = event.activityTaskScheduledEventAttributes;
    if (activity) scheduled.set(String(event.eventId), activity);
    if (activity?.activityType?.name === 'subscribeToResource') found.push(resourceWorkflowId(((await decode(activity.input)) as { resource: ResourceKey }).resource));
    const completed = event.activityTaskCompletedEventAttributes;
    const creation = completed ? scheduled.get(String(completed.scheduledEventId)) : undefined;
    const activityType = creation?.activityType?.name ?? '';
    // Only the subscribing activities' payloads are decoded: every other activity is passed over.
    if (!completed || !creation || !subscribesToResource(activityType)) continue;
    found.push(resourceWorkflowId(resourceSubscribedBy(activityType, await decode(creation.input), await decode(completed.result))));
  }
  return found;
}

export function formatStatus(status: JourneyStatus & { runStatus?: string }): string {
  const lines = [`case ${status.caseId}: ${status.state}${status.runStatus ? ` (${status.runStatus.toLowerCase()})` : ''}`];
  if (status.operatorDeadline) lines.push(`  waiting for an operator until ${status.operatorDeadline}`);
  lines.push(`  ${'STEP'.padEnd(60)} ${'STATE'.padEnd(16)} ${'ATTEMPT'.padEnd(8)} PROVIDER IDS`);
  for (const [key, step] of Object.entries(status.steps)) lines.push(...formatStep(key, step));
  return lines.join('\n');
}

function formatStep(key: string, step: JourneyStep): string[] {
  const pad = ' '.repeat(4);
  const ids = Object.entries(step.providerIds).map(([k, v]) => `${k}=${v}`).join(' ');
  const lines = [`  ${key.padEnd(60)} ${step.state.padEnd(16)} ${String(step.attempt || '-').padEnd(8)} ${ids}`];
  if (step.reason) lines.push(`${pad}reason: ${step.reason}`);
  if (step.error) lines.push(`${pad}provider said: ${step.error.status ?? 'no answer'} ${step.error.message}`);
  for (const [name, link] of Object.entries(step.links ?? {})) lines.push(`${pad}${name.replace(/_/g, ' ')}: ${link}`);
  const picklist = (step.detail as { picklist?: PicklistEntry[] | null } | null)?.picklist;
  if (step.state === 'waiting' && picklist?.length) {
    lines.push(`${pad}choose one with: npm run journey -- resolve-picklist <caseId> <provider_id>`);
    for (const e of picklist) lines.push(`${pad}  ${e.provider_id.padEnd(14)} ${e.company_name} (${e.company_number ?? 'no number'}, ${e.country_code ?? '??'})${e.address ? `, ${e.address}` : ''}`);
  }
  const earlier = (step.attempts ?? []).filter((a) => a.attempt !== step.attempt);
  for (const a of earlier) lines.push(`${pad}attempt ${a.attempt}: ${a.state}${a.carriedOver ? ' (carried over)' : ''}${a.reason ? ` — ${a.reason}` : ''} [${a.workflowId}]`);
  return lines;
}
