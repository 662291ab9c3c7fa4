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

export async function openWorkflows(client: Client): Promise<OpenWorkflows> {
  const groups: OpenWorkflows = new Map();
  for await (const execution of client.workflow.list({ query: 'ExecutionStatus="Running"', pageSize: 1000 })) {
    const group = groupOf(execution.type, execution.workflowId);
    groups.set(group, (groups.get(group) ?? 0) + 1);
  }
  return groups;
}

export function totalOf(groups: OpenWorkflows): number {
  return [...groups.values()].reduce((sum, n) => sum + n, 0);
}

/** `after` minus `before`, per group (what the measured journeys opened, without the warm-up's). */
export function openedSince(before: OpenWorkflows, after: OpenWorkflows): OpenWorkflows {
  const opened: OpenWorkflows = new Map();
  for (const [group, n] of after) if (n - (before.get(group) ?? 0) !== 0) opened.set(group, n - (before.get(group) ?? 0));
  return opened;
}
