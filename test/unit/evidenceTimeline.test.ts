/**
 * The console's timeline names the evidence's events for what they say about the case (an item
 * superseded by a later provider result, an item about to go stale), not as something the lender's
 * system was told: they are shown whether or not an LOS took them.
 */
import { timelineSection } from '../../case-api/console/timelineView';
import type { TimelineEntry } from '../../case-file/caseTimeline';

const at = '2026-11-27T10:00:00.000Z';
const entry = (type: string, step: string): TimelineEntry => ({ kind: 'case_event', at, type, eventId: 'evt_1', step });
const names = new Map([['p-1', 'Ada Lovelace']]);

test('a superseded and an expiring item are named as such, with their step; other events as told to the LOS', () => {
  const html = timelineSection(
    [
      entry('case.evidence_superseded', 'identity-verification/p-1'),
      entry('case.evidence_expiring', 'credit-report'),
      entry('case.sla_breached', 'credit-report'),
    ],
    names,
  );
  expect(html).toMatch(/evidence superseded by a later provider result<\/strong> \([^)]*Ada Lovelace/);
  expect(html).toContain('evidence about to go stale</strong>');
  expect(html).not.toMatch(/told<\/span> case\.evidence_/);
  expect(html).toContain("lender's system told</span> case.sla_breached");
});
