/**
 * A case: whose it is (company, applicants by name, the lender's reference) and who owns it, its
 * state and reasons, each step with its attempts, reason, the provider's answer and the applicant's
 * links, the operator's actions where the journey would accept them (the journey's validators have
 * the last word; a refusal is shown with their message), the evidence and the timeline.
 */
import type { DeskEvidence } from '../../case-file/caseDeskEvidence';
import type { CaseRecord } from '../../case-file/caseReadModel';
import type { TimelineEntry } from '../../case-file/caseTimeline';
import { escapeHtml } from '../escapeHtml';
import type { caseView } from '../caseView';
import { evidenceSection, validityLine } from './evidenceView';
import { operatorLabel, stepLabel, when, type Names, type OperatorNames } from './format';
import { timelineSection } from './timelineView';

type CaseView = ReturnType<typeof caseView>;
type StepView = CaseView['steps'][string];

const retryable = ['needs_attention', 'failed', 'expired', 'cancelled'];
const settled = ['completed', 'waived'];

export interface CasePageContext {
  csrf: string;
  /** Temporal Web UI base URL and namespace, for the history link. */
  webUi?: { url: string; namespace: string };
  /**
   * What the case file adds (absent without one): names, owner, evidence, timeline, and the mark
   * live updates wait on.
   */
  desk?: { record: CaseRecord | undefined; evidence: DeskEvidence; timeline: TimelineEntry[]; mark: string };
  /** The operators a case can be assigned to, and who is signed in. */
  operators: readonly string[];
  me: string;
  /** The names of the OIDC operators the page names (its owner, its timeline's actors). */
  operatorNames?: OperatorNames;
  /**
   * Whether the signed-in operator holds the role that may waive (CASE_API_WAIVE_ROLE); false hides
   * the waive forms.
   */
  mayWaive?: boolean;
}

export function caseBody(
  view: CaseView,
  ctx: CasePageContext,
  flash?: { kind: 'error' | 'notice'; text: string },
): string {
  const open = view.runStatus === 'RUNNING';
  const action = (path: string) => `/console/cases/${encodeURIComponent(view.caseId)}/${path}`;
  const hidden = `<input type="hidden" name="csrf" value="${escapeHtml(ctx.csrf)}">`;
  const names: Names = new Map(
    (ctx.desk?.record?.applicants ?? []).flatMap((a) => (a.name ? [[a.personId, a.name] as const] : [])),
  );
  const steps = Object.entries(view.steps)
    .map(([key, step]) => stepRow(key, step, names, open, action, hidden, ctx.mayWaive ?? true))
    .join('');
  const desk = ctx.desk;
  const live = desk
    ? ` data-watch="case=${escapeHtml(encodeURIComponent(view.caseId))}" data-mark="${escapeHtml(desk.mark)}"`
    : '';
  const title = desk?.record?.company
    ? `${escapeHtml(desk.record.company)} <code class="muted">${escapeHtml(view.caseId)}</code>`
    : `Case <code>${escapeHtml(view.caseId)}</code>`;
  const applicantList = desk?.record?.applicants
    .map((a) => (a.name ? `<strong>${escapeHtml(a.name)}</strong>` : `<code>${escapeHtml(a.personId)}</code>`))
    .join(', ');
  const applicants = desk?.record?.applicants.length ? `<p>Applicants: ${applicantList}</p>` : '';
  const reference = view.reference
    ? `<p>Lender's reference: <code id="reference">${escapeHtml(view.reference)}</code></p>`
    : '';
  const history = ctx.webUi && view.runId ? webUiLinks(ctx.webUi, view.caseId, view.runId) : '';
  const cancel = open
    ? `<form class="inline" method="post" action="${action('cancel')}">${hidden}<input type="text" name="reason" ` +
      `placeholder="why cancel" aria-label="cancel reason"><button class="danger">Cancel journey</button></form>`
    : '';
  const flashBox = flash
    ? `<div class="box ${flash.kind}" role="${flash.kind === 'error' ? 'alert' : 'status'}">` +
      `${escapeHtml(flash.text)}</div>`
    : '';
  const state = `<span class="state ${escapeHtml(view.state)}" id="journey-state">${escapeHtml(view.state)}</span>`;
  const runStatus = escapeHtml(view.runStatus.toLowerCase());
  const deadline = view.operatorDeadline ? ` · waits for an operator until ${when(view.operatorDeadline)}` : '';
  const reasons = view.reasons.length
    ? `<div class="box"><strong>Why it is not done</strong><ul>` +
      `${view.reasons.map((r) => `<li>${escapeHtml(r)}</li>`).join('')}</ul></div>`
    : '';
  const stepsTable =
    '<table><thead><tr><th>Step</th><th>State</th><th>Attempts</th><th>Details</th><th>Actions</th></tr></thead>' +
    `<tbody>${steps}</tbody></table>`;
  return `${flashBox}
<div data-live${live}><h1>${title} ${state}</h1>
${reference}${applicants}<p class="muted">run ${runStatus}${deadline} ${history ? `· ${history}` : ''}</p>
${desk?.record ? ownerBox(desk.record, ctx, action, hidden) : ''}
${reasons}
${stepsTable}
${cancel}
${desk ? evidenceSection(desk.evidence, names) + timelineSection(desk.timeline, names, ctx.operatorNames) : ''}</div>`;
}

/** Who owns the case, and the forms to take it, give it to a colleague, or release it. */
function ownerBox(record: CaseRecord, ctx: CasePageContext, action: (p: string) => string, hidden: string): string {
  const owner = record.assignee
    ? `<strong id="owner">${operatorLabel(record.assignee, ctx.operatorNames)}</strong> since ${when(record.assignedAt)}`
    : '<span id="owner" class="muted">nobody</span>';
  const form = (body: string) =>
    `<form class="inline" method="post" action="${action('assign')}">${hidden}${body}</form>`;
  const take =
    record.assignee === ctx.me ? '' : form('<input type="hidden" name="to" value="me"><button>Assign to me</button>');
  const colleagues = ctx.operators.filter((o) => o !== ctx.me && o !== record.assignee);
  const give = colleagues.length
    ? form(
        `<input type="hidden" name="to" value="colleague"><select name="assignee" aria-label="colleague">` +
          `${colleagues.map((o) => `<option>${escapeHtml(o)}</option>`).join('')}</select><button>Assign</button>`,
      )
    : '';
  const release = record.assignee ? form('<input type="hidden" name="to" value="nobody"><button>Release</button>') : '';
  return `<div class="box owner">Owner: ${owner} ${take} ${give} ${release}</div>`;
}

/** The journey's history, and every workflow of the case (journey, step attempts, resources) by its CaseId. */
function webUiLinks(webUi: { url: string; namespace: string }, caseId: string, runId: string): string {
  const namespace = `${webUi.url}/namespaces/${encodeURIComponent(webUi.namespace)}`;
  const journey = `${namespace}/workflows/${encodeURIComponent(`case/${caseId}`)}/${encodeURIComponent(runId)}/history`;
  const all = `${namespace}/workflows?query=${encodeURIComponent(`CaseId="${caseId}"`)}`;
  return (
    `<a href="${escapeHtml(journey)}">history in the Temporal Web UI</a> · <a href="` +
    `${escapeHtml(all)}">every workflow of this case</a>`
  );
}

function stepRow(
  key: string,
  step: StepView,
  names: Names,
  open: boolean,
  action: (p: string) => string,
  hidden: string,
  mayWaive = true,
): string {
  const details = [
    step.reason ? `<div>${escapeHtml(step.reason)}</div>` : '',
    validityLine(step.evidence),
    step.error
      ? `<div>provider said: <code>` +
        `${escapeHtml(String(step.error.status ?? 'no answer'))}</code> ` +
        `${escapeHtml(step.error.message)}</div>`
      : '',
    ...Object.entries(step.links ?? {}).map(
      ([name, link]) =>
        `<div>${escapeHtml(name.replace(/_/g, ' '))}: <a href="${escapeHtml(link)}" ` +
        `rel="noreferrer">${escapeHtml(link)}</a></div>`,
    ),
    ...Object.entries(step.providerIds).map(
      ([k, v]) => `<div class="muted">${escapeHtml(k)} <code>${escapeHtml(v)}</code></div>`,
    ),
    open && step.picklist?.length ? picklistForm(step.picklist, picklistExpiry(step), action, hidden) : '',
  ].join('');
  const attempts = step.attempts
    .map(
      (a) =>
        `<div>#${a.attempt} <span class="state ${escapeHtml(a.state)}">${escapeHtml(a.state)}` +
        `</span>${a.carriedOver ? ' (carried over)' : ''}` +
        `${a.reason ? ` <span class="muted">${escapeHtml(a.reason)}</span>` : ''}</div>`,
    )
    .join('');
  const actions = open ? stepActions(key, step, action, hidden, mayWaive) : '';
  return (
    `<tr data-step="${escapeHtml(key)}"><td>${stepLabel(key, names)}</td><td><span class="state ` +
    `${escapeHtml(step.state)}">${escapeHtml(step.state)}</span></td><td>` +
    `${attempts || '<span class="muted">none yet</span>'}</td><td>${details}</td><td>${actions}</td></tr>`
  );
}

function stepActions(
  key: string,
  step: StepView,
  action: (p: string) => string,
  hidden: string,
  mayWaive: boolean,
): string {
  const stepField = `<input type="hidden" name="step" value="${escapeHtml(key)}">`;
  const retry = retryable.includes(step.state)
    ? `<form class="inline" method="post" action="${action('retry')}">` +
      `${hidden}${stepField}<button>Retry</button></form>`
    : '';
  const waive =
    settled.includes(step.state) || !mayWaive
      ? ''
      : `<form class="inline" method="post" action="${action('waive')}">${hidden}${stepField}` +
        `<input type="text" name="reason" required placeholder="reason" aria-label="waive reason ` +
        `for ${escapeHtml(key)}"><button>Waive</button></form>`;
  return retry + waive;
}

/** When the step's wait for a choice expires (client/creditReportMessages.ts), if it says. */
function picklistExpiry(step: StepView): string | null {
  const expiresAt = (step.detail as { expiresAt?: unknown } | null | undefined)?.expiresAt;
  return typeof expiresAt === 'string' ? expiresAt : null;
}

function picklistForm(
  picklist: NonNullable<StepView['picklist']>,
  expiresAt: string | null,
  action: (p: string) => string,
  hidden: string,
): string {
  const options = picklist
    .map(
      (e, i) =>
        `<label style="display:block"><input type="radio" name="providerId" value="${escapeHtml(e.provider_id)}` +
        `"${i === 0 ? ' required' : ''}> ${escapeHtml(e.company_name)} <span class="muted">(` +
        `${escapeHtml(e.company_number ?? 'no number')}, ${escapeHtml(e.country_code ?? '??')})` +
        `${e.address ? `, ${escapeHtml(e.address)}` : ''} · <code>${escapeHtml(e.provider_id)}</code></span>` +
        `</label>`,
    )
    .join('');
  return (
    `<form method="post" action="${action('picklist')}" class="box">${hidden}<strong>Which company is it?</strong>` +
    (expiresAt ? `<div class="muted picklist-expiry">unresolved, the step expires at ${when(expiresAt)}</div>` : '') +
    `${options}<button>Choose this company</button></form>`
  );
}
