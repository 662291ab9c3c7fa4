/**
 * The case page's timeline: operator actions (who, what, why, when, the outcome), provider records
 * and the events the LOS took.
 */
import type { TimelineEntry } from '../../case-file/caseTimeline';
import { escapeHtml } from '../escapeHtml';
import { operatorLabel, when, stepLabel, type Names, type OperatorNames } from './format';

const verbs: Record<Extract<TimelineEntry, { kind: 'operator_action' }>['action'], string> = {
  retryStep: 'retried',
  waiveStep: 'waived',
  resolvePicklist: 'resolved the picklist of',
  cancel: 'cancelled the journey',
  assign: 'assigned the case',
  release: 'released the case',
};

export function timelineSection(entries: readonly TimelineEntry[], names: Names, operators?: OperatorNames): string {
  const items = [...entries]
    .reverse()
    .map((e) => `<li class="${escapeHtml(e.kind)}">${when(e.at)} ${describe(e, names, operators)}</li>`)
    .join('');
  return (
    `<section id="timeline"><h2>Timeline</h2>` +
    `${items ? `<ol class="timeline">${items}</ol>` : '<p class="muted">Nothing yet.</p>'}` +
    `</section>`
  );
}

function describe(e: TimelineEntry, names: Names, operators: OperatorNames | undefined): string {
  switch (e.kind) {
    case 'operator_action': {
      const what =
        e.action === 'assign'
          ? `assigned the case to <strong>${operatorLabel(e.assignee ?? '', operators)}</strong>`
          : `${escapeHtml(verbs[e.action])}${e.step ? ` ${stepLabel(e.step, names)}` : ''}`;
      const outcome =
        e.outcome === 'accepted' ? '' : ` <span class="state failed">refused</span> ${escapeHtml(e.message ?? '')}`;
      return (
        `<strong class="actor">${operatorLabel(e.actor, operators)}</strong> ${what}` +
        `${e.reason ? `: <q class="reason">${escapeHtml(e.reason)}</q>` : ''}${outcome}`
      );
    }
    case 'provider_record':
      return (
        `<span class="muted">provider</span> ${escapeHtml(e.record.replace(/_/g, ' '))}` +
        `${e.status ? ` ${escapeHtml(e.status)}` : ''} <code class="muted">${escapeHtml(e.id)}</code>`
      );
    case 'notification':
    case 'case_event':
      return (
        `<span class="muted">lender's system told</span> ${escapeHtml(e.type)}` +
        `${e.step ? ` (${stepLabel(e.step, names)})` : ''}`
      );
  }
}
