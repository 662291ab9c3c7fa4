/**
 * `journey replay`: a case's histories (the journey, each step attempt and every resource workflow
 * its steps subscribed to, all found by their `CaseId` search attribute) replayed against a workflow
 * bundle, which proves that the code the worker runs now can carry the case's open workflows on.
 */
import type { temporal } from '@temporalio/proto';
import { Worker, type WorkflowBundleOption } from '@temporalio/worker';
import { journeyWorkflowId } from './journeyMessages';
import type { JourneyClientContext } from './journeyOperations';
import { caseIdSearchAttribute } from './searchAttributes';

export interface ReplayedHistory {
  workflowId: string;
  events: number;
  error?: string;
}

export type WorkflowCode =
  { workflowBundle: WorkflowBundleOption } | { workflowsPath: string; bundlerOptions?: { preloadModules?: string[] } };

export async function replayJourney(
  ctx: JourneyClientContext,
  caseId: string,
  code: WorkflowCode,
): Promise<ReplayedHistory[]> {
  const histories = await journeyHistories(ctx, caseId);
  const list = [...histories].map(([workflowId, history]) => ({ workflowId, history }));
  // The histories are encrypted: the replay decodes them with the client's data converter.
  const results: ReplayedHistory[] = [];
  for await (const result of Worker.runReplayHistories(
    { ...code, dataConverter: ctx.client.options.dataConverter },
    list,
  )) {
    results.push({
      workflowId: result.workflowId,
      events: histories.get(result.workflowId)?.events?.length ?? 0,
      error: result.error ? String(result.error) : undefined,
    });
  }
  return results;
}

/** The latest history of every workflow of the case, by workflow id (the journey first). */
export async function journeyHistories(
  ctx: JourneyClientContext,
  caseId: string,
): Promise<Map<string, temporal.api.history.v1.IHistory>> {
  const workflowIds = await caseWorkflowIds(ctx, caseId);
  const histories = new Map<string, temporal.api.history.v1.IHistory>();
  for (const workflowId of workflowIds) {
    const history = await ctx.client.workflow
      .getHandle(workflowId)
      .fetchHistory()
      .catch(() => undefined);
    if (history) histories.set(workflowId, history);
  }
  return histories;
}

/** The case's workflow ids from visibility, the journey first, each once. */
export async function caseWorkflowIds(ctx: JourneyClientContext, caseId: string): Promise<string[]> {
  const ids = new Set<string>([journeyWorkflowId(caseId)]);
  const query = `${caseIdSearchAttribute.name} = "${caseId.replace(/["\\]/g, '')}"`;
  for await (const execution of ctx.client.workflow.list({ query })) ids.add(execution.workflowId);
  return [...ids];
}
