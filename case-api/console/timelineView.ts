/**
 * The case page's timeline: operator actions (who, what, why, when, the outcome), provider records,
 * the events the LOS took, and the evidence's events (an item about to go stale or superseded).
 */
import type { EvidenceEventType } from '../../case-events/caseEvent';
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
  refreshEvidence: 'renewed the evidence of',
};

/** The evidence's events: shown from when they were recorded, told to the LOS or not yet. */
const evidenceEvents: Partial<Record<string, string>> = {
  'case.evidence_expiring': 'evidence about to go stale',
  'case.evidence_superseded': 'evidence superseded by a later provider result',
} satisfies Record<EvidenceEventType, string>;

function evidenceLine(e: Extract<TimelineEntry, { kind: 'case_event' }>, what: string, names: Names): string {
  return (
    `<strong class="evidence">${escapeHtml(what)}</strong>${e.step ? ` (${stepLabel(e.step, names)})` : ''} ` +
    `<span class="muted">${escapeHtml(e.type)}</span>`
  );
}

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
    case 'case_event': {
      const evidence = evidenceEvents[e.type];
      return evidence ? evidenceLine(e, evidence, names) : toldLine(e, names);
    }
    case 'notification':
      return toldLine(e, names);
  }
}

function toldLine(e: { type: string; step: string | null }, names: Names): string {
  return (
    `<span class="muted">lender's system told</span> ${escapeHtml(e.type)}` +
    `${e.step ? ` (${stepLabel(e.step, names)})` : ''}`
  );
}
