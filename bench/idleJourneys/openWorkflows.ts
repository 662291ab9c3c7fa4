/**
 * The workflows open on the dev server, from one paginated visibility listing, grouped as a journey
 * is built: the journey itself, its step workflows by type, and resource workflows by kind.
 */
import type { Client } from '@temporalio/client';

export type OpenWorkflows = Map<string, number>;

function groupOf(workflowType: string, workflowId: string): string {
  if (workflowType === 'resourceWorkflow') return `resourceWorkflow ${workflowId.split('/')[1] ?? '?'}`;
  return workflowType;
}

/** Running workflows, or only those started at `startedSince` or later (not the warm-up's). */
export async function openWorkflows(client: Client, startedSince?: Date): Promise<OpenWorkflows> {
  const groups: OpenWorkflows = new Map();
  const since = startedSince ? ` AND StartTime >= "${startedSince.toISOString()}"` : '';
  for await (const execution of client.workflow.list({ query: `ExecutionStatus="Running"${since}`, pageSize: 1000 })) {
    const group = groupOf(execution.type, execution.workflowId);
    groups.set(group, (groups.get(group) ?? 0) + 1);
  }
  return groups;
}

export function totalOf(groups: OpenWorkflows): number {
  return [...groups.values()].reduce((sum, n) => sum + n, 0);
}
