/** How the `journey` CLI shows a journey's status, a retry plan and a bulk step retry as text. */
import type { PicklistEntry } from '../provider';
import type { BulkRetryPlan, BulkRetrySummary } from '../client/bulkStepRetry';
import type { BulkStepRetryRequest } from '../client/bulkStepRetryRequest';
import { textTable } from './textTable';
import type { EvidenceValidity } from '../client/evidenceValidity';
import type { JourneyStatus, JourneyStep } from '../client/journeyMessages';
import type { RetryPlan } from '../client/journeyRetry';
import type { Purchase } from '../case-file/purchaseLedger';

export function formatRetryPlan(plan: RetryPlan): string {
  const lines = [`case/${plan.caseId}:`];
  for (const step of plan.carriedOver) lines.push(`  carry over  ${step}`);
  for (const { step, attempt, was } of plan.rerun) lines.push(`  run again   ${step} (was ${was}; attempt ${attempt})`);
  return lines.join('\n');
}

export function formatStatus(status: JourneyStatus & { runStatus?: string; reference?: string | null }): string {
  const reference = status.reference ? ` (reference ${status.reference})` : '';
  const lines = [
    `case ${status.caseId}${reference}: ${status.state}${status.runStatus ? ` (${status.runStatus.toLowerCase()})` : ''}`,
  ];
  if (status.operatorDeadline) lines.push(`  waiting for an operator until ${status.operatorDeadline}`);
  lines.push(`  ${'STEP'.padEnd(60)} ${'STATE'.padEnd(16)} ${'ATTEMPT'.padEnd(8)} PROVIDER IDS`);
  for (const [key, step] of Object.entries(status.steps)) lines.push(...formatStep(key, step));
  return lines.join('\n');
}

function formatStep(key: string, step: JourneyStep): string[] {
  const pad = ' '.repeat(4);
  const ids = Object.entries(step.providerIds)
    .map(([k, v]) => `${k}=${v}`)
    .join(' ');
  const lines = [`  ${key.padEnd(60)} ${step.state.padEnd(16)} ${String(step.attempt || '-').padEnd(8)} ${ids}`];
  if (step.reason) lines.push(`${pad}reason: ${step.reason}`);
  if (step.actions?.length && step.state !== 'waiting') lines.push(`${pad}next: ${step.actions.join(' | ')}`);
  if (step.error) lines.push(`${pad}provider said: ${step.error.status ?? 'no answer'} ${step.error.message}`);
  if (step.evidence) lines.push(`${pad}${formatEvidence(step.evidence)}`);
  for (const [name, link] of Object.entries(step.links ?? {})) lines.push(`${pad}${name.replace(/_/g, ' ')}: ${link}`);
  const picklist = (step.detail as { picklist?: PicklistEntry[] | null } | null)?.picklist;
  if (step.state === 'waiting' && picklist?.length) {
    lines.push(`${pad}choose one with: npm run journey -- resolve-picklist <caseId> <provider_id>`);
    for (const e of picklist)
      lines.push(
        `${pad}  ${e.provider_id.padEnd(14)} ${e.company_name} (${e.company_number ?? 'no number'}, ` +
          `${e.country_code ?? '??'})${e.address ? `, ${e.address}` : ''}`,
      );
  }
  const earlier = (step.attempts ?? []).filter((a) => a.attempt !== step.attempt);
  for (const a of earlier)
    lines.push(
      `${pad}attempt ${a.attempt}: ${a.state}${a.carriedOver ? ' (carried over)' : ''}` +
        `${a.reason ? ` — ${a.reason}` : ''} [${a.workflowId}]`,
    );
  return lines;
}

/** A step's evidence: its kind, until when it is valid and from whose date, whether stale, its renewals. */
function formatEvidence(item: EvidenceValidity): string {
  const from = item.dateFrom === 'provider' ? "the provider's date" : 'when it was read';
  const renewed = item.refreshes > 0 ? `; renewed ${item.refreshes}× (${item.lastRefreshReason ?? 'no reason'})` : '';
  return `${item.kind} valid until ${item.validUntil}${item.stale ? ' (STALE)' : ''}, from ${from} ${item.measuredFrom}${renewed}`;
}

/**
 * The purchase ledger of a case, one line per creating call: what was bought, and what is unknown
 * (with what the search saw), so an operator sees every possible charge.
 */
export function formatPurchases(purchases: Purchase[]): string[] {
  if (purchases.length === 0) return [];
  const lines = ['  purchases'];
  for (const p of purchases) {
    const at = (p.settled_at ?? p.intended_at).toISOString();
    const what =
      p.state === 'bought' ? `bought ${p.provider_id}` : p.state === 'unknown' ? 'outcome unknown' : 'intended';
    lines.push(`    ${p.call_key} ${p.kind}: ${what} (${at})${p.fresh ? ', fresh' : ''}`);
    if (p.evidence) lines.push(`      ${p.evidence}`);
  }
  return lines;
}

/** A bulk retry's dry run: the cases, and the command that retries them (with the plan's request id). */
export function formatBulkPlan(plan: BulkRetryPlan, request: BulkStepRetryRequest): string {
  if (!plan.cases.length) return `no running journey matches\n  ${plan.query}`;
  const lines = [`${plan.cases.length}${plan.more ? '+' : ''} running journeys match\n  ${plan.query}`, ''];
  lines.push(
    textTable(
      ['CASE', 'JOURNEY', plan.step.toUpperCase()],
      plan.cases.map((c) => [c.caseId, c.state, c.stepState ?? '(no such step)']),
    ),
  );
  lines.push('');
  if (plan.more) {
    lines.push(
      `dry run: nothing was retried. More than ${plan.cases.length} journeys match, more than one ` +
        `run takes: narrow --where (by CaseId, StartTime…) and run each part.`,
    );
    return lines.join('\n');
  }
  const command = [
    'journey retry-step',
    `--where ${shellQuote(request.where)}`,
    `--step ${shellQuote(plan.step)}`,
    `--reason ${shellQuote(request.reason)}`,
    ...(request.fresh ? ['--fresh'] : []),
    ...(request.concurrency !== 4 ? [`--concurrency ${request.concurrency}`] : []),
    `--request-id ${shellQuote(plan.requestId)}`,
    '--yes',
  ].join(' ');
  lines.push(
    `dry run: nothing was retried. To retry ${plan.step} on these ${plan.cases.length} cases (a ` +
      `case whose step cannot be retried is refused, and left as it is):`,
    `  ${command}`,
  );
  return lines.join('\n');
}

export function formatBulkSummary(summary: BulkRetrySummary): string {
  const lines = [
    `${summary.step}${summary.fresh ? ' (fresh)' : ''} on ${summary.cases} cases: ${summary.accepted.length} ` +
      `accepted, ${summary.refused.length} refused, ${summary.failed.length} failed`,
  ];
  if (summary.refused.length) lines.push('refused:', ...summary.refused.map((r) => `  ${r.caseId}: ${r.message}`));
  if (summary.failed.length) lines.push('failed:', ...summary.failed.map((r) => `  ${r.caseId}: ${r.message}`));
  if (summary.failed.length || summary.refused.length)
    lines.push(
      `request id ${summary.requestId}: run the same command with --request-id ` +
        `${shellQuote(summary.requestId)} again once fixed; accepted cases answer their first result`,
    );
  return lines.join('\n');
}

/** A word the shell reads back as it is: bare, in single quotes, or (holding one) in double quotes. */
function shellQuote(word: string): string {
  if (/^[A-Za-z0-9_./:=@%+-]+$/.test(word)) return word;
  if (!word.includes("'")) return `'${word}'`;
  if (!/["$`\\!]/.test(word)) return `"${word}"`;
  return `'${word.replace(/'/g, `'\\''`)}'`;
}
