/**
 * What an operator does with journeys: start one from a JSON input, see its status, list journeys
 * by state, resolve a credit report picklist, cancel, retry a closed journey with its original
 * input, and replay a journey's history against the current workflow code.
 */
import { readFileSync } from 'node:fs';
import type { Client } from '@temporalio/client';
import { decodeFromPayloadsAtIndex } from '@temporalio/common/lib/internal-non-workflow';
import { Worker, type WorkflowBundleOption } from '@temporalio/worker';
import { describeIssues } from '../provider';
import { workflowsPath } from '../worker/createWorker';
import { resolvePicklistUpdate, type CreditReportDetail } from '../workflows/creditReportWorkflow';
import { onboardCaseInputSchema, type OnboardCaseInput } from '../workflows/journeyInput';
import { cancelJourneySignal, journeyStatusQuery, journeyWorkflowId, onboardCase, type JourneyStatus } from '../workflows/onboardCaseWorkflow';

export class JourneyCommandError extends Error {
  override name = 'JourneyCommandError';
}

export interface CommandContext {
  client: Client;
  taskQueue: string;
}

export function readJourneyInput(file: string): OnboardCaseInput {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new JourneyCommandError(`Cannot read ${file} as JSON: ${(error as Error).message}`);
  }
  const parsed = onboardCaseInputSchema.safeParse(raw);
  if (!parsed.success) throw new JourneyCommandError(`${file} is not a valid journey input:\n  ${describeIssues(parsed.error).join('\n  ')}`);
  return raw as OnboardCaseInput;
}

export async function startJourney(ctx: CommandContext, input: OnboardCaseInput): Promise<string> {
  const handle = await ctx.client.workflow.start(onboardCase, { workflowId: journeyWorkflowId(input.caseId), taskQueue: ctx.taskQueue, args: [input] });
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
  for await (const w of ctx.client.workflow.list({ query })) {
    const attributes = w.searchAttributes as Record<string, unknown[] | undefined>;
    rows.push({ caseId: String(attributes.CaseId?.[0] ?? w.workflowId), state: String(attributes.JourneyState?.[0] ?? '?'), runStatus: w.status.name });
  }
  return rows;
}

export async function resolvePicklist(ctx: CommandContext, caseId: string, providerId: string): Promise<CreditReportDetail> {
  const handle = ctx.client.workflow.getHandle(`${journeyWorkflowId(caseId)}/credit-report`);
  return handle.executeUpdate(resolvePicklistUpdate, { args: [{ provider_id: providerId }] });
}

export async function cancelJourney(ctx: CommandContext, caseId: string, reason?: string): Promise<void> {
  await ctx.client.workflow.getHandle(journeyWorkflowId(caseId)).signal(cancelJourneySignal, { reason });
}

/** Starts a new run of a closed journey with the input of its latest run. */
export async function retryJourney(ctx: CommandContext, caseId: string): Promise<string> {
  const handle = ctx.client.workflow.getHandle(journeyWorkflowId(caseId));
  const description = await handle.describe();
  if (description.status.name === 'RUNNING') throw new JourneyCommandError(`case/${caseId} is still running; cancel it first or wait for it to end`);
  const history = await handle.fetchHistory();
  const started = history.events?.[0]?.workflowExecutionStartedEventAttributes;
  if (!started?.input?.payloads?.length) throw new JourneyCommandError(`case/${caseId} has no recorded input to retry with`);
  // The history holds the input as the codec wrote it (encrypted); decode it as the client would.
  const input = await decodeFromPayloadsAtIndex<OnboardCaseInput>(ctx.client.options.loadedDataConverter, 0, started.input.payloads);
  const retried = await ctx.client.workflow.start(onboardCase, { workflowId: handle.workflowId, taskQueue: ctx.taskQueue, args: [input] });
  return retried.firstExecutionRunId;
}

/** Replays a journey's history against this checkout's workflow code; throws on non-determinism. */
export async function replayJourney(ctx: CommandContext, caseId: string, workflowBundle?: WorkflowBundleOption): Promise<number> {
  const handle = ctx.client.workflow.getHandle(journeyWorkflowId(caseId));
  const history = await handle.fetchHistory();
  // The replayer decodes the history with the client's codec, so encrypted histories replay too.
  const { dataConverter } = ctx.client.options;
  await Worker.runReplayHistory({ ...(workflowBundle ? { workflowBundle } : { workflowsPath }), dataConverter }, history, handle.workflowId);
  return history.events?.length ?? 0;
}

export function formatStatus(status: JourneyStatus & { runStatus?: string }): string {
  const lines = [`case ${status.caseId}: ${status.state}${status.runStatus ? ` (${status.runStatus.toLowerCase()})` : ''}`];
  for (const [key, step] of Object.entries(status.steps)) {
    const ids = Object.entries(step.providerIds).map(([k, v]) => `${k}=${v}`).join(' ');
    lines.push(`  ${key.padEnd(56)} ${step.state.padEnd(16)} ${ids}${step.reason ? `\n  ${' '.repeat(56)} ↳ ${step.reason}` : ''}`);
  }
  for (const reason of status.reasons) lines.push(`  reason: ${reason}`);
  return lines.join('\n');
}
