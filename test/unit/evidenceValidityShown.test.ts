/**
 * Each step's evidence validity as a person reads it: `journey status` prints its kind, until when
 * it is valid, from whose date, STALE when the journey completed with it past its window, and its
 * renewals; the console's case page shows the same, the renewal's reason escaped.
 */
import { formatStatus } from '../../cli/journeyFormat';
import type { EvidenceValidity } from '../../client/evidenceValidity';
import type { JourneyStatus, JourneyStep } from '../../client/journeyMessages';
import { validityLine } from '../../case-api/console/evidenceView';

const renewed: EvidenceValidity = {
  kind: 'creditReport',
  measuredFrom: '2026-11-27T10:00:00.000Z',
  dateFrom: 'read',
  validUntil: '2026-12-27T10:00:00.000Z',
  stale: false,
  refreshes: 1,
  lastRefreshReason: 'evidence stale: creditReport valid until 2026-11-27T09:00:00.000Z <b>',
};
const stale: EvidenceValidity = {
  kind: 'bankTransactions',
  measuredFrom: '2026-11-01T00:00:00.000Z',
  dateFrom: 'provider',
  validUntil: '2026-11-15T00:00:00.000Z',
  stale: true,
  refreshes: 0,
};

const step = (evidence: EvidenceValidity): JourneyStep =>
  ({
    state: 'completed',
    attempt: 1,
    workflowId: 'case/c/step',
    providerIds: {},
    reason: null,
    detail: null,
    dependsOn: null,
    lastEvent: null,
    links: {},
    error: null,
    need: 1,
    attempts: [],
    evidence,
  }) as unknown as JourneyStep;

test('journey status prints each step’s validity, stale flagged, renewals counted', () => {
  const status: JourneyStatus = {
    caseId: 'c',
    state: 'completed',
    reasons: [],
    steps: { 'credit-report': step(renewed), banking: step(stale) },
  };
  const lines = formatStatus(status).split('\n');
  expect(lines.find((l) => l.includes('creditReport valid until'))).toContain(
    'creditReport valid until 2026-12-27T10:00:00.000Z',
  );
  expect(lines.find((l) => l.includes('bankTransactions valid until'))).toContain(
    'bankTransactions valid until 2026-11-15T00:00:00.000Z (STALE)',
  );
  expect(lines.find((l) => l.includes('creditReport valid until'))).toMatch(/renewed 1/);
});

test('the console shows until when each item is valid, stale flagged, the renewal reason escaped', () => {
  const fresh = validityLine(renewed);
  expect(fresh).toContain('data-valid-until="2026-12-27T10:00:00.000Z"');
  expect(fresh).toContain('renewed 1×');
  expect(fresh).toContain('&lt;b&gt;');
  expect(fresh).not.toContain('<b>');
  expect(validityLine(stale)).toContain('<strong class="stale">stale</strong>');
  expect(validityLine(undefined)).toBe('');
});
