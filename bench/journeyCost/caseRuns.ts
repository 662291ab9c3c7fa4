/**
 * The workflow runs one case's journey touched, their histories, and what they cost together: the
 * measuring part shared by `bench:cost` and `bench:waiting`.
 */
import type { Client } from '@temporalio/client';
import { caseIdSearchAttribute } from '../../client/searchAttributes';
import { addCost, historyCost, zeroCost, type Cost } from './historyCost';

export interface Run {
  workflowId: string;
  runId: string;
}

/** Every workflow run on the server. */
export async function allRuns(client: Client): Promise<Run[]> {
  const runs: Run[] = [];
  for await (const execution of client.workflow.list()) runs.push({ workflowId: execution.workflowId, runId: execution.runId });
  return runs;
}

/** The runs of one case (journey, step attempts, resources): all carry its CaseId search attribute. */
export async function runsOfCase(client: Client, caseId: string): Promise<Run[]> {
  const runs: Run[] = [];
  for await (const execution of client.workflow.list({ query: `${caseIdSearchAttribute.name} = "${caseId}"` })) runs.push({ workflowId: execution.workflowId, runId: execution.runId });
  return runs;
}

export async function historyOf(client: Client, run: Run) {
  return (await client.workflow.getHandle(run.workflowId, run.runId).fetchHistory()).events ?? [];
}

/**
 * Waits until no history of these runs grew for `quietMs` (resource workflows finish forwarding;
 * they stay open for their retention, waiting for late deliveries).
 */
export async function untilQuiet(client: Client, runs: () => Promise<Run[]>, quietMs: number): Promise<Run[]> {
  let last = '';
  for (;;) {
    const current = await runs();
    const lengths = await Promise.all(current.map(async (r) => `${r.runId}:${(await historyOf(client, r)).length}`));
    const signature = lengths.sort().join(',');
    if (signature === last) return current;
    last = signature;
    await new Promise((resolve) => setTimeout(resolve, quietMs));
  }
}

/** Which part of the journey a workflow belongs to: the journey, a step, or a step's resource. */
export function partOf(workflowId: string, caseId: string): string {
  const journey = `case/${caseId}`;
  if (workflowId === journey) return 'journey';
  // `identity-verification/<person id>`, and `/<n>` for later attempts: one row per step.
  if (workflowId.startsWith(`${journey}/`)) return workflowId.slice(journey.length + 1).replace(/^identity-verification\/.*/, 'identity-verification').replace(/\/\d+$/, '');
  const kind = workflowId.split('/')[1] ?? 'other';
  return `resource ${kind}`;
}

/** What the runs of a case cost, in all and by part (partOf). */
export async function costOf(client: Client, runs: readonly Run[], caseId: string): Promise<{ total: Cost; byPart: Map<string, Cost> }> {
  const total = zeroCost();
  const byPart = new Map<string, Cost>();
  for (const run of runs) {
    const cost = historyCost(await historyOf(client, run));
    addCost(total, cost);
    const part = partOf(run.workflowId, caseId);
    byPart.set(part, addCost(byPart.get(part) ?? zeroCost(), cost));
  }
  return { total, byPart };
}
