/**
 * The console's funnel page (/console/funnel): the range and grouping as a GET form, a link to the
 * same figures as CSV, three charts drawn by /console/funnel.js, and every figure in a table per
 * period and for the whole range (what the charts show, readable without them).
 */
import type { Funnel, FunnelStep } from '../../case-file/funnel';
import { funnelGroupings } from '../../case-file/funnel';
import { escapeHtml } from '../escapeHtml';

export interface FunnelForm {
  from?: string;
  to?: string;
  groupBy: string;
}

const minutes = (seconds: number | null) => (seconds === null ? '–' : `${Math.round(seconds / 6) / 10} min`);
const pair = (t: FunnelStep['timeInStep']) => `${minutes(t.medianSeconds)} / ${minutes(t.p90Seconds)}`;

/** The query string of the form's values (what the CSV link and the form share). */
export function funnelSearch(form: FunnelForm): string {
  const params = new URLSearchParams();
  if (form.from) params.set('from', form.from);
  if (form.to) params.set('to', form.to);
  params.set('groupBy', form.groupBy);
  return params.toString();
}

export function funnelForm(form: FunnelForm): string {
  const input = (name: 'from' | 'to', label: string) =>
    `<label>${label} <input type="date" name="${name}" value="${escapeHtml(form[name] ?? '')}"></label>`;
  const choices = funnelGroupings
    .map((g) => `<option value="${g}"${form.groupBy === g ? ' selected' : ''}>${g}</option>`)
    .join('');
  return (
    `<form class="filters" method="get" action="/console/funnel">${input('from', 'Started from')}` +
    `${input('to', 'to')}<label>by <select name="groupBy">${choices}</select></label><button>Show</button></form>`
  );
}

export function funnelBody(funnel: Funnel, form: FunnelForm): string {
  const csv = `/console/funnel.csv?${funnelSearch({ ...form, from: funnel.from, to: funnel.to })}`;
  // JSON inside a script element: `<` escaped, so no value can close the element.
  const data = JSON.stringify(funnel).replace(/</g, '\\u003c');
  const periods = funnel.periods
    .map((p) => `<h3>From ${escapeHtml(p.period)}: ${p.cases} case(s)</h3>${table(p.steps)}`)
    .join('');
  return `<h1>Where applicants drop off</h1>${funnelForm(form)}
<p>Cases started from ${escapeHtml(funnel.from)} to ${escapeHtml(funnel.to)}: <strong id="funnel-cases">${funnel.total.cases}</strong>.
<a id="funnel-csv" href="${escapeHtml(csv)}" download>Download CSV</a></p>
<style>.charts{display:grid;grid-template-columns:repeat(auto-fit,minmax(22rem,1fr));gap:1rem}
.chart-box{position:relative;height:16rem;background:#fff;border:1px solid #e3e5ea;border-radius:6px;padding:.5rem}
table.funnel td,table.funnel th{font-size:12px}</style>
<div class="charts"><div class="chart-box"><canvas id="funnel-outcomes"></canvas></div>
<div class="chart-box"><canvas id="funnel-waits"></canvas></div>
<div class="chart-box"><canvas id="funnel-first-action"></canvas></div></div>
<h2>The whole range</h2>${table(funnel.total.steps)}<h2>By ${escapeHtml(funnel.groupBy)}</h2>${periods}
<script type="application/json" id="funnel-data">${data}</script>
<script src="/console/chart.js" defer></script><script src="/console/funnel.js" defer></script>`;
}

function table(steps: FunnelStep[]): string {
  if (steps.length === 0) return '<p class="muted">No step reached.</p>';
  const rows = steps
    .map(
      (s) =>
        `<tr data-step="${escapeHtml(s.step)}"><td>${escapeHtml(s.step)}</td><td>${s.reached}</td><td>${s.completed}</td>` +
        `<td>${s.waived}</td><td>${s.expired}</td><td>${s.needsAttention}</td><td>${s.unfinished}</td>` +
        `<td>${pair(s.timeInStep)}</td><td>${pair(s.waitingOnApplicant)}</td><td>${pair(s.waitingOnProvider)}</td>` +
        `<td>${pair(s.waitingOnOperator)}</td><td>${pair(s.firstAction)}</td></tr>`,
    )
    .join('');
  return (
    '<table class="funnel"><tr><th>Step</th><th>Reached</th><th>Completed</th><th>Waived</th><th>Expired</th>' +
    '<th>Needed attention</th><th>Unfinished</th><th>Time in step (median / p90)</th><th>On the applicant</th>' +
    `<th>On the provider</th><th>On an operator</th><th>To first action</th></tr>${rows}</table>`
  );
}
