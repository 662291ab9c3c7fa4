/**
 * The queue: whose case it is (company, applicants, the lender's reference), what is wrong
 * (reasons), since when it waits for an operator and until when (the operator deadline, or sooner
 * a picklist's expiry), and who owns it; filtered by a GET form, sorted by age or deadline, a page
 * at a time by the read model's cursor.
 */
import type { CaseSummary } from '../caseGateway';
import { escapeHtml } from '../escapeHtml';
import { journeyStates } from '../schemas';
import { age, operatorLabel, when, type OperatorNames } from './format';
import { stepStates } from '../../client/stepState';
import { NOBODY, queueHref, waitingChoices, type QueueFilters } from './queueFilters';

export interface QueueContext {
  filters: QueueFilters;
  /** The operators a case can be assigned to (the console's operator names), and who is signed in. */
  operators: readonly string[];
  me: string;
  /** The names of the OIDC operators who own the listed cases. */
  operatorNames?: OperatorNames;
  nextCursor: string | null;
  /** The queue's mark in the case file when it was read (changeWatcher.ts); absent: no live updates. */
  mark?: string;
}

export function queueBody(cases: CaseSummary[], ctx: QueueContext): string {
  const live = ctx.mark === undefined ? '' : ` data-watch="queue=1" data-mark="${escapeHtml(ctx.mark)}"`;
  const pages = [
    ctx.filters.cursor
      ? `<a href="${escapeHtml(queueHref({ ...ctx.filters, cursor: undefined }))}">First page</a>`
      : '',
    ctx.nextCursor ? `<a href="${escapeHtml(queueHref(ctx.filters, ctx.nextCursor))}" rel="next">Next page</a>` : '',
  ].filter(Boolean);
  return `<h1>Cases</h1><p><a id="funnel" href="/console/funnel">Where applicants drop off (funnel)</a></p>${filterForm(ctx)}
<div data-live${live}>${table(cases, ctx.me, ctx.operatorNames)}${pages.length ? `<p>${pages.join(' · ')}</p>` : ''}</div>`;
}

function filterForm(ctx: QueueContext): string {
  const f = ctx.filters;
  const select = (name: string, label: string, options: [string, string][], value: string | number | undefined) => {
    const choices = options
      .map(
        ([v, text]) =>
          `<option value="${escapeHtml(v)}"${String(value ?? '') === v ? ' selected' : ''}>` +
          `${escapeHtml(text)}</option>`,
      )
      .join('');
    return `<label>${label} <select name="${name}">${choices}</select></label>`;
  };
  const owners: [string, string][] = [
    ['', 'anyone or nobody'],
    [NOBODY, 'nobody'],
    ...ctx.operators.map((o): [string, string] => [o, o === ctx.me ? `${o} (me)` : o]),
  ];
  const waiting: [string, string][] = [
    ['', 'any time'],
    ...waitingChoices.map((m): [string, string] => [
      String(m),
      m < 60 ? `${m} min` : m < 1440 ? `${m / 60} h` : `${m / 1440} d`,
    ]),
  ];
  const nameField =
    `<label>Name <input type="search" name="name" value="${escapeHtml(f.name ?? '')}" ` +
    'placeholder="company or applicant" maxlength="200"></label>';
  const referenceField =
    `<label>Reference <input type="search" name="reference" value="${escapeHtml(f.reference ?? '')}" ` +
    'placeholder="the lender\'s, exactly" maxlength="200"></label>';
  return `<form method="get" action="/console" class="box filters" role="search">
${select('state', 'State', [['', 'any'], ...journeyStates.map((s): [string, string] => [s, s])], f.state)}
${select('stepState', 'A step', [['', 'any'], ...stepStates.map((s): [string, string] => [s, s])], f.stepState)}
${select('owner', 'Owner', owners, f.owner)}
${nameField}
${referenceField}
${select('waiting', 'Waiting longer than', waiting, f.waiting)}
${select(
  'sort',
  'Sort',
  [
    ['newest', 'newest first'],
    ['oldest', 'oldest first'],
    ['deadline', 'deadline soonest'],
  ],
  f.sort,
)}
<button>Show</button> <a href="/console">Clear</a></form>`;
}

function table(cases: CaseSummary[], me: string, operators: OperatorNames | undefined): string {
  if (cases.length === 0) return '<p class="muted">No case matches.</p>';
  const rows = cases.map((c) => row(c, me, operators)).join('');
  return (
    `<table class="queue"><thead><tr><th>Case</th><th>Applicants</th><th>State</th><th>What is wrong</th>` +
    `<th>Waiting since</th><th>Deadline</th><th>Owner</th></tr></thead><tbody>${rows}</tbody></table>`
  );
}

function row(c: CaseSummary, me: string, operators: OperatorNames | undefined): string {
  const href = `/console/cases/${encodeURIComponent(c.caseId)}`;
  const title = c.company ? escapeHtml(c.company) : '<span class="muted">no company</span>';
  const applicants = (c.applicants ?? [])
    .map((a) => (a.name ? escapeHtml(a.name) : `<code class="muted">${escapeHtml(a.personId.slice(0, 8))}…</code>`))
    .join(', ');
  const reasons = (c.reasons ?? []).map((r) => `<div>${escapeHtml(r)}</div>`).join('');
  const waiting = c.waitingSince
    ? `${when(c.waitingSince)} <span class="muted">(${escapeHtml(age(c.waitingSince))})</span>`
    : '';
  const deadline = deadlineCell(c);
  const reference = c.reference ? `<div class="reference">ref <code>${escapeHtml(c.reference)}</code></div>` : '';
  const owner = c.assignee
    ? `${operatorLabel(c.assignee, operators)}${c.assignee === me ? ' <span class="muted">(me)</span>' : ''}`
    : '<span class="muted">nobody</span>';
  return (
    `<tr data-case="${escapeHtml(c.caseId)}"><td><a href="${href}">${title}</a><div><code class="muted">` +
    `${escapeHtml(c.caseId)}</code></div>${reference}<div class="muted">started ${when(c.startedAt)}</div></td><td>` +
    `${applicants}</td><td><span class="state ${escapeHtml(c.state)}">${escapeHtml(c.state)}</span></td><td>` +
    `${reasons}</td><td>${waiting}</td><td class="deadline">${deadline}</td><td class="owner">${owner}</td></tr>`
  );
}

/**
 * The queue's deadline (case-file/caseQueue.ts): the operator deadline, or sooner the expiry of a
 * picklist wait, said so. A list without the read model has only the operator deadline.
 */
function deadlineCell(c: CaseSummary): string {
  const deadline = c.deadline !== undefined ? c.deadline : c.operatorDeadline;
  if (!deadline) return '';
  const picklist =
    deadline !== (c.operatorDeadline ?? null) ? ' <span class="muted">(the picklist expires)</span>' : '';
  return `${when(deadline)}${picklist}`;
}
