import { failuresIn } from '../support/schemathesisReport';

// Trimmed from a real Schemathesis 4.32 report (the contract test's, with a response-time limit of 20 ms).
const report = `
=================================== FAILURES ===================================
_______________________ GET /v1/cases/{caseId}/evidence ________________________
1. Test Case ID: 9oJ6jV

- ST112 Response time limit exceeded

    Actual: 40.27ms
    Limit: 20.00ms

[200] OK:

    \`{"caseId":"4d847a8a"}\`

Reproduce with:

    curl -X GET -H 'Authorization: [Filtered]' http://127.0.0.1:41185/v1/cases/4d847a8a/evidence

__________________ POST /v1/cases/{caseId}/steps/{step}/waive __________________
1. Test Case ID: J7Bsx6

- Server error

- Response violates schema

    'error' is a required property

[500] Internal Server Error:

    \`{"message":"boom"}\`

=================================== WARNINGS ===================================

Missing test data: 2 operations repeatedly returned 404 Not Found
`;

test('each failure of a Schemathesis report is a line: the operation, the check and the status of its answer', () => {
  expect(failuresIn(report)).toEqual([
    'GET /v1/cases/{caseId}/evidence: ST112 Response time limit exceeded [200]',
    'POST /v1/cases/{caseId}/steps/{step}/waive: Server error [500]',
    'POST /v1/cases/{caseId}/steps/{step}/waive: Response violates schema [500]',
  ]);
});

test('a report without a FAILURES section says so rather than claiming nothing failed', () => {
  expect(failuresIn('Schemathesis v4.32.5\nTraceback (most recent call last):\n  ...')).toEqual([
    '(no FAILURES section: see the output)',
  ]);
});
