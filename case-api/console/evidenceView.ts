/**
 * The case page's evidence: the credit report's headline, IDV verdicts by name, accounts with
 * balances and their money chart; and each step's validity line (until when its evidence is valid).
 */
import type { DeskEvidence } from '../../case-file/caseDeskEvidence';
import type { EvidenceValidity } from '../../client/evidenceValidity';
import { escapeHtml } from '../escapeHtml';
import type { Names } from './format';
import { moneyChart } from './moneyChart';
import { when } from './format';

export function evidenceSection(evidence: DeskEvidence, names: Names): string {
  const parts = [
    creditReports(evidence.creditReports),
    idvResults(evidence.idvResults, names),
    accounts(evidence.bankAccounts),
  ].filter(Boolean);
  return (
    `<section id="evidence"><h2>Evidence</h2>` +
    `${parts.length ? parts.join('') : '<p class="muted">The case file holds nothing from the provider yet.</p>'}` +
    `</section>`
  );
}

function creditReports(reports: DeskEvidence['creditReports']): string {
  if (reports.length === 0) return '';
  const rows = reports
    .map(
      (r) =>
        `<tr><td>${escapeHtml(r.companyName ?? '')} <span class="muted">${escapeHtml(r.companyNumber ?? '')}` +
        `</span></td><td>${escapeHtml(r.status)}</td><td>${r.creditScore ?? ''}</td><td>` +
        `${r.creditLimit === null ? '' : escapeHtml(`${r.creditLimit.toLocaleString('en-GB')} ${r.currency ?? ''}`)}` +
        `</td><td><code class="muted">${escapeHtml(r.reportId)}</code></td></tr>`,
    )
    .join('');
  return (
    `<h3>Credit report</h3><table id="credit-reports"><thead><tr><th>Company</th><th>Status</th><th>Score</th>` +
    `<th>Credit limit</th><th>Report</th></tr></thead><tbody>${rows}</tbody></table>`
  );
}

function idvResults(results: DeskEvidence['idvResults'], names: Names): string {
  if (results.length === 0) return '';
  const rows = results
    .map(
      (r) =>
        `<tr><td>${escapeHtml(names.get(r.personId) ?? r.personId)}</td><td>` +
        `${escapeHtml(r.status)}</td><td>${escapeHtml(r.verificationStatus ?? '')}</td><td>` +
        `<code class="muted">${escapeHtml(r.requestId)}</code></td></tr>`,
    )
    .join('');
  return (
    `<h3>Identity verification</h3><table id="idv-results"><thead><tr><th>Person</th><th>Status</th>` +
    `<th>Verdict</th><th>Request</th></tr></thead><tbody>${rows}</tbody></table>`
  );
}

function accounts(list: DeskEvidence['bankAccounts']): string {
  if (list.length === 0) return '';
  return `<h3>Bank accounts</h3>${list.map(account).join('')}`;
}

function account(a: DeskEvidence['bankAccounts'][number]): string {
  const title = `${a.bankName} · ${a.accountName}${a.accountNumberMasked ? ` · ${a.accountNumberMasked}` : ''}`;
  const balances = a.balances
    .map(
      (b) =>
        `<li>${escapeHtml(b.type)}: <strong>` +
        `${escapeHtml(b.amount.toLocaleString('en-GB', { minimumFractionDigits: 2 }))} ` +
        `${escapeHtml(b.currency)}</strong> <span class="muted">as of ${escapeHtml(b.as_of)}` +
        `</span></li>`,
    )
    .join('');
  return (
    `<div class="box account" data-account="${escapeHtml(a.accountConnectionId)}"><strong>${escapeHtml(title)}` +
    `</strong><ul>${balances}</ul>${moneyChart(a.months, a.currency, `Money in and out of ${title} by month`)}` +
    `</div>`
  );
}

/** A step's evidence in its details: valid until when (stale flagged), from whose date, and its renewals. */
export function validityLine(item: EvidenceValidity | undefined): string {
  if (!item) return '';
  const from = item.dateFrom === 'provider' ? "the provider's date" : 'when it was read';
  const stale = item.stale ? ' <strong class="stale">stale</strong>' : '';
  const renewed =
    item.refreshes > 0
      ? ` · renewed ${item.refreshes}×${item.lastRefreshReason ? ` (${escapeHtml(item.lastRefreshReason)})` : ''}`
      : '';
  return (
    `<div class="validity" data-valid-until="${escapeHtml(item.validUntil)}">valid until ` +
    `${when(item.validUntil)}${stale} ` +
    `<span class="muted">from ${from}${renewed}</span></div>`
  );
}
