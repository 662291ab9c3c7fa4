/** The queue: cases that need an operator, then the ones still running. */
import type { CaseSummary } from '../caseGateway';
import { escapeHtml } from '../escapeHtml';

export function queueBody(attention: CaseSummary[], running: CaseSummary[]): string {
  return `<div data-live><h1>Cases that need attention</h1>${table(attention, 'No case needs attention.')}
<h2>Running</h2>${table(running, 'Nothing is running.')}<p class="muted">Updates every few seconds.</p></div>`;
}

function table(cases: CaseSummary[], empty: string): string {
  if (cases.length === 0) return `<p class="muted">${empty}</p>`;
  const rows = cases
    .map((c) => `<tr><td><a href="/console/cases/${encodeURIComponent(c.caseId)}"><code>${escapeHtml(c.caseId)}</code></a></td><td><span class="state ${escapeHtml(c.state)}">${escapeHtml(c.state)}</span></td><td>${escapeHtml(c.startedAt ?? '')}</td></tr>`)
    .join('');
  return `<table><thead><tr><th>Case</th><th>State</th><th>Started</th></tr></thead><tbody>${rows}</tbody></table>`;
}
