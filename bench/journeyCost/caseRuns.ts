/**
 * The workflow runs one case's journey touched, their histories, and what they cost together: the
 * measuring part shared by `bench:cost` and `bench:waiting`.
 */
import type { Client } from '@temporalio/client';
import { caseIdSearchAttribute } from '../../client/searchAttributes';
import type { ResourceKey } from '../../provider';
import type { RequestLogEntry } from '../../simulator/store';
import { addCost, historyCost, zeroCost, type Cost } from './historyCost';
import { pollAttempts } from './providerPolls';

export interface Run {
  workflowId: string;
  runId: string;
}

/** Every workflow run on the server. */
export async function allRuns(client: Client): Promise<Run[]> {
  const runs: Run[] = [];
  for await (const execution of client.workflow.list())
    runs.push({ workflowId: execution.workflowId, runId: execution.runId });
  return runs;
}

/** The runs of one case (journey, step attempts, resources): all carry its CaseId search attribute. */
export async function runsOfCase(client: Client, caseId: string): Promise<Run[]> {
  const runs: Run[] = [];
  for await (const execution of client.workflow.list({ query: `${caseIdSearchAttribute.name} = "${caseId}"` }))
    runs.push({ workflowId: execution.workflowId, runId: execution.runId });
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
  if (workflowId.startsWith(`${journey}/`))
    return workflowId
      .slice(journey.length + 1)
      .replace(/^identity-verification\/.*/, 'identity-verification')
      .replace(/\/\d+$/, '');
  const kind = workflowId.split('/')[1] ?? 'other';
  return `resource ${kind}`;
}

/** The resource a `resource/<kind>/<id>` workflow stands for. */
function resourceOf(workflowId: string): ResourceKey | undefined {
  const [prefix, kind, ...id] = workflowId.split('/');
  return prefix === 'resource' && kind ? ({ kind, id: id.join('/') } as ResourceKey) : undefined;
}

/**
 * What one run costs, from its history; with the provider's request log, a resource's poll attempts
 * that no history shows are added to its actions and polls (providerPolls.ts).
 */
export function runCost(
  run: Run,
  events: Awaited<ReturnType<typeof historyOf>>,
  requests?: readonly RequestLogEntry[],
): Cost {
  const cost = historyCost(events);
  const resource = resourceOf(run.workflowId);
  if (!requests || !resource) return cost;
  const polled = pollAttempts(events, requests, resource);
  cost.actions += polled.attempts - polled.shown;
  cost.actionsByKind.activityRetries += polled.attempts - polled.shown;
  // The history counted one poll per activity; each attempt is one.
  cost.polls += polled.attempts - polled.activities;
  return cost;
}

/** What the runs of a case cost, in all and by part (partOf); `requests` as for runCost. */
export async function costOf(
  client: Client,
  runs: readonly Run[],
  caseId: string,
  requests?: readonly RequestLogEntry[],
): Promise<{ total: Cost; byPart: Map<string, Cost> }> {
  const total = zeroCost();
  const byPart = new Map<string, Cost>();
  for (const run of runs) {
    const cost = runCost(run, await historyOf(client, run), requests);
    addCost(total, cost);
    const part = partOf(run.workflowId, caseId);
    byPart.set(part, addCost(byPart.get(part) ?? zeroCost(), cost));
  }
  return { total, byPart };
}
