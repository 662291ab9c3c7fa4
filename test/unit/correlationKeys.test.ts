import { correlationKeys, parseDelivery, resourceWorkflowId, type ParsedDelivery } from '../../provider';
import { RESOURCE_WORKFLOW_TYPE } from '../../activities/signalResource';
import { resourceWorkflow } from '../../workflows/resourceWorkflow';

const guid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const document = {
  document_id: guid(1).toUpperCase(),
  document_endpoint: `/v2/documents/${guid(1)}`,
  file_name: 'statement.pdf',
};

function delivery(event_type: string, data: Record<string, unknown>): ParsedDelivery {
  const result = parseDelivery({
    webhook_id: guid(9),
    webhook_name: 'w',
    datetime_sent: '2026-11-21T10:00:00Z',
    external_ref: null,
    event_type,
    data,
  });
  if (!result.ok) throw new Error(result.problems.join('; '));
  return result.delivery;
}

const idv = {
  identity_request: { request_id: 'req-7', identity_request_endpoint: '/a', identity_result_endpoint: '/b' },
  person: { first_name: 'A', last_name: 'B', name: 'A B', person_id: 'p' },
};

describe('correlationKeys', () => {
  test.each([
    [
      'IdentityVerification.Completed',
      { ...idv, status: 'Completed', date_completed: '2026-11-21T10:00:00Z', verification_status: 'Approved' },
      ['resource/idv/req-7'],
    ],
    [
      'IdentityVerification.Expired',
      { ...idv, status: 'Expired', verification_status: 'NotCompleted' },
      ['resource/idv/req-7'],
    ],
    [
      'AffordabilityInsights.Completed',
      { request_id: guid(3), affordability_insight_endpoint: '/x', affordability_insight_transactions_endpoint: '/y' },
      [`resource/affordability/${guid(3)}`],
    ],
    [
      'IncomeEmployerInsights.Completed',
      {
        status: 'Failed',
        message: 'no employer',
        entity_type: 'case',
        entity_id: guid(4),
        datetime_requested: '2026-11-21T10:00:00Z',
        datetime_completed: '2026-11-21T10:05:00Z',
        income_and_employer_request: { request_id: 'ie-1', verification_endpoint: '/v2/income-employer/ie-1' },
      },
      ['resource/income-employer/ie-1'],
    ],
    ['PayslipProcessing.Completed', { status: 'Complete', message: null, document }, [`resource/document/${guid(1)}`]],
    [
      'DocumentProcessing.Completed',
      { status: 'Failed', message: 'unreadable', document_type: 'Payslip', document },
      [`resource/document/${guid(1)}`],
    ],
    [
      'BankStatementProcessing.Completed',
      {
        bank_connection_id: null,
        status: 'Failed',
        message: 'unreadable',
        entity_type: 'Case',
        entity_id: guid(5).toUpperCase(),
        document,
        connected_accounts: [],
      },
      [`resource/document/${guid(1)}`, `resource/case-banking/${guid(5)}`],
    ],
    [
      'OpenBankingProcessing.Completed',
      {
        bank_connection_id: guid(6),
        status: 'Rejected',
        entity_type: 'case',
        entity_id: guid(5),
        connected_accounts: [],
      },
      [`resource/case-banking/${guid(5)}`],
    ],
    [
      'BankingProcessing.Completed',
      {
        bank_connection_id: guid(6),
        status: 'Complete',
        entity_type: 'Case',
        entity_id: guid(5),
        connected_accounts: [],
      },
      [`resource/case-banking/${guid(5)}`],
    ],
    ['Brand.NewEvent', { whatever: true }, ['resource/unrouted/Brand.NewEvent']],
  ])('%s', (eventType, data, expected) => {
    expect(correlationKeys(delivery(eventType, data)).map(resourceWorkflowId)).toEqual(expected);
  });
});

test('the activities name the resource workflow by the type the worker registers', () => {
  expect(RESOURCE_WORKFLOW_TYPE).toBe(resourceWorkflow.name);
});
