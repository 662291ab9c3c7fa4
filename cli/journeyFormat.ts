/** How the `journey` CLI shows a journey's status and a retry plan as text. */
import type { PicklistEntry } from '../provider';
import type { JourneyStatus, JourneyStep } from '../client/journeyMessages';
import type { RetryPlan } from '../client/journeyRetry';

export function formatRetryPlan(plan: RetryPlan): string {
  const lines = [`case/${plan.caseId}:`];
  for (const step of plan.carriedOver) lines.push(`  carry over  ${step}`);
  for (const { step, attempt, was } of plan.rerun) lines.push(`  run again   ${step} (was ${was}; attempt ${attempt})`);
  return lines.join('\n');
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
