/**
 * The console shows the lender's reference of a case on its page and in the queue, and the queue's
 * search form finds cases by it.
 */
import { caseView } from '../../case-api/caseView';
import { caseBody } from '../../case-api/console/casePage';
import { listFiltersOf, queueFiltersOf, queueHref } from '../../case-api/console/queueFilters';
import { queueBody } from '../../case-api/console/queuePage';
import type { CaseSummary } from '../../case-api/caseGateway';

const row = (reference: string | null): CaseSummary => ({
  caseId: 'case-1',
  workflowId: 'case/case-1',
  runId: 'run-1',
  state: 'running',
  runStatus: 'RUNNING',
  startedAt: '2025-01-01T00:00:00.000Z',
  company: 'Acme Widgets Ltd',
  applicants: [],
  reference,
  reasons: [],
  waitingSince: null,
  operatorDeadline: null,
  deadline: null,
  updatedAt: '2025-01-01T00:00:00.000Z',
  assignee: null,
});

test("the queue's search takes a reference to the list's filter and keeps it in its links and form", () => {
  const filters = queueFiltersOf({ reference: ' APP-7 ', name: '' });
  expect(listFiltersOf(filters)).toMatchObject({ reference: 'APP-7' });
  expect(queueHref(filters)).toBe('/console?reference=APP-7');
  const page = queueBody([row('APP-7'), { ...row(null), caseId: 'case-2' }], {
    filters,
    operators: [],
    me: 'ada',
    nextCursor: null,
  });
  expect(page).toContain('name="reference" value="APP-7"');
  expect(page).toMatch(/<tr data-case="case-1">.*ref <code>APP-7<\/code>/);
  expect(page).not.toMatch(/<tr data-case="case-2">.*ref <code>/);
});

test("a case's page shows its reference, escaped, and nothing when it has none", () => {
  const status = {
    caseId: 'case-1',
    state: 'running' as const,
    steps: {},
    reasons: [],
    operatorDeadline: null,
    runStatus: 'RUNNING',
    runId: 'run-1',
  };
  const ctx = { csrf: 'token', operators: [], me: 'ada' };
  expect(caseBody(caseView({ ...status, reference: 'APP-<7>' }), ctx)).toContain(
    'Lender\'s reference: <code id="reference">APP-&lt;7&gt;</code>',
  );
  expect(caseBody(caseView({ ...status, reference: null }), ctx)).not.toContain('id="reference"');
});
