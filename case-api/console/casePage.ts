/**
 * A case: its state and reasons, each step with its attempts, reason, the provider's answer and the
 * applicant's links, and the operator's actions where the journey would accept them (the journey's
 * validators have the last word; a refusal is shown with their message).
 */
import { escapeHtml } from '../escapeHtml';
import type { caseView } from '../caseView';

type CaseView = ReturnType<typeof caseView>;
type StepView = CaseView['steps'][string];

const retryable = ['needs_attention', 'failed', 'expired', 'cancelled'];
const settled = ['completed', 'waived'];

export interface CasePageContext {
  csrf: string;
  /** Temporal Web UI base URL and namespace, for the history link. */
  webUi?: { url: string; namespace: string };
}

export function caseBody(view: CaseView, ctx: CasePageContext, flash?: { kind: 'error' | 'notice'; text: string }): string {
  const open = view.runStatus === 'RUNNING';
  const action = (path: string) => `/console/cases/${encodeURIComponent(view.caseId)}/${path}`;
  const hidden = `<input type="hidden" name="csrf" value="${escapeHtml(ctx.csrf)}">`;
  const steps = Object.entries(view.steps).map(([key, step]) => stepRow(key, step, open, action, hidden)).join('');
  const history = ctx.webUi && view.runId ? webUiLinks(ctx.webUi, view.caseId, view.runId) : '';
  const cancel = open
    ? `<form class="inline" method="post" action="${action('cancel')}">${hidden}<input type="text" name="reason" placeholder="why cancel" aria-label="cancel reason"><button class="danger">Cancel journey</button></form>`
    : '';
  return `${flash ? `<div class="box ${flash.kind}" role="${flash.kind === 'error' ? 'alert' : 'status'}">${escapeHtml(flash.text)}</div>` : ''}
<div data-live><h1>Case <code>${escapeHtml(view.caseId)}</code> <span class="state ${escapeHtml(view.state)}" id="journey-state">${escapeHtml(view.state)}</span></h1>
<p class="muted">run ${escapeHtml(view.runStatus.toLowerCase())}${view.operatorDeadline ? ` · waits for an operator until ${escapeHtml(view.operatorDeadline)}` : ''} ${history ? `· ${history}` : ''}</p>
${view.reasons.length ? `<div class="box"><strong>Why it is not done</strong><ul>${view.reasons.map((r) => `<li>${escapeHtml(r)}</li>`).join('')}</ul></div>` : ''}
<table><thead><tr><th>Step</th><th>State</th><th>Attempts</th><th>Details</th><th>Actions</th></tr></thead><tbody>${steps}</tbody></table>
${cancel}</div>`;
}

/** The journey's history, and every workflow of the case (journey, step attempts, resources) by its CaseId. */
function webUiLinks(webUi: { url: string; namespace: string }, caseId: string, runId: string): string {
  const namespace = `${webUi.url}/namespaces/${encodeURIComponent(webUi.namespace)}`;
  const journey = `${namespace}/workflows/${encodeURIComponent(`case/${caseId}`)}/${encodeURIComponent(runId)}/history`;
  const all = `${namespace}/workflows?query=${encodeURIComponent(`CaseId="${caseId}"`)}`;
  return `<a href="${escapeHtml(journey)}">history in the Temporal Web UI</a> · <a href="${escapeHtml(all)}">every workflow of this case</a>`;
}

function stepRow(key: string, step: StepView, open: boolean, action: (p: string) => string, hidden: string): string {
  const details = [
    step.reason ? `<div>${escapeHtml(step.reason)}</div>` : '',
    step.error ? `<div>provider said: <code>${escapeHtml(String(step.error.status ?? 'no answer'))}</code> ${escapeHtml(step.error.message)}</div>` : '',
    ...Object.entries(step.links ?? {}).map(([name, link]) => `<div>${escapeHtml(name.replace(/_/g, ' '))}: <a href="${escapeHtml(link)}" rel="noreferrer">${escapeHtml(link)}</a></div>`),
    ...Object.entries(step.providerIds).map(([k, v]) => `<div class="muted">${escapeHtml(k)} <code>${escapeHtml(v)}</code></div>`),
    open && step.picklist?.length ? picklistForm(step.picklist, action, hidden) : '',
  ].join('');
  const attempts = step.attempts
    .map((a) => `<div>#${a.attempt} <span class="state ${escapeHtml(a.state)}">${escapeHtml(a.state)}</span>${a.carriedOver ? ' (carried over)' : ''}${a.reason ? ` <span class="muted">${escapeHtml(a.reason)}</span>` : ''}</div>`)
    .join('');
  const actions = open ? stepActions(key, step, action, hidden) : '';
  return `<tr data-step="${escapeHtml(key)}"><td><code>${escapeHtml(key)}</code></td><td><span class="state ${escapeHtml(step.state)}">${escapeHtml(step.state)}</span></td><td>${attempts || '<span class="muted">none yet</span>'}</td><td>${details}</td><td>${actions}</td></tr>`;
}

function stepActions(key: string, step: StepView, action: (p: string) => string, hidden: string): string {
  const stepField = `<input type="hidden" name="step" value="${escapeHtml(key)}">`;
  const retry = retryable.includes(step.state) ? `<form class="inline" method="post" action="${action('retry')}">${hidden}${stepField}<button>Retry</button></form>` : '';
  const waive = settled.includes(step.state)
    ? ''
    : `<form class="inline" method="post" action="${action('waive')}">${hidden}${stepField}<input type="text" name="reason" required placeholder="reason" aria-label="waive reason for ${escapeHtml(key)}"><button>Waive</button></form>`;
  return retry + waive;
}

function picklistForm(picklist: NonNullable<StepView['picklist']>, action: (p: string) => string, hidden: string): string {
  const options = picklist
    .map((e, i) => `<label style="display:block"><input type="radio" name="providerId" value="${escapeHtml(e.provider_id)}"${i === 0 ? ' required' : ''}> ${escapeHtml(e.company_name)} <span class="muted">(${escapeHtml(e.company_number ?? 'no number')}, ${escapeHtml(e.country_code ?? '??')})${e.address ? `, ${escapeHtml(e.address)}` : ''} · <code>${escapeHtml(e.provider_id)}</code></span></label>`)
    .join('');
  return `<form method="post" action="${action('picklist')}" class="box">${hidden}<strong>Which company is it?</strong>${options}<button>Choose this company</button></form>`;
}
