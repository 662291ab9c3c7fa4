/** Where two start requests differ (case-api/requestDifferences.ts): by field, in any order, lists as a whole. */
import { requestDifferences } from '../../case-api/requestDifferences';

test('the same request in another order differs nowhere; a changed field, list or added field is named by its path', () => {
  const first = { caseId: 'c1', steps: { creditReport: true, banking: 'open_banking' }, people: [{ personId: 'p1' }] };
  expect(
    requestDifferences(first, {
      people: [{ personId: 'p1' }],
      steps: { banking: 'open_banking', creditReport: true },
      caseId: 'c1',
    }),
  ).toEqual([]);
  expect(
    requestDifferences(first, {
      ...first,
      reference: 'APP-1',
      steps: { creditReport: true, banking: 'bank_statements' },
      people: [{ personId: 'p2' }],
    }),
  ).toEqual(['people', 'reference', 'steps.banking']);
});
