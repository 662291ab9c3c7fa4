/** Tolerant routing: ids read alone route a delivery whose data fails its schema; document status words are mapped. */
import {
  boundedId,
  correlationKeys,
  documentSchema,
  parseDelivery,
  resourceWorkflowId,
  type ParsedDelivery,
} from '../../provider';

const guid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const document = { document_id: guid(1), document_endpoint: `/v2/documents/${guid(1)}`, file_name: 'march.pdf' };

function parsed(event_type: string, data: Record<string, unknown>): ParsedDelivery {
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

describe('correlation keys read with the ids only', () => {
  test.each([
    [
      'IdentityVerification.Completed',
      { identity_request: { request_id: 'req-1' }, verification_status: 'Maybe' },
      ['resource/idv/req-1'],
    ],
    ['AffordabilityInsights.Completed', { request_id: 'not-a-guid' }, ['resource/affordability/not-a-guid']],
    [
      'IncomeEmployerInsights.Completed',
      { income_and_employer_request: { request_id: 'ie-1' } },
      ['resource/income-employer/ie-1'],
    ],
    ['PayslipProcessing.Completed', { status: 'Pending', document }, [`resource/document/${guid(1)}`]],
    [
      'BankStatementProcessing.Completed',
      { document, entity_id: guid(5).toUpperCase() },
      [`resource/document/${guid(1)}`, `resource/case-banking/${guid(5)}`],
    ],
    ['BankingProcessing.Completed', { entity_id: guid(5), status: 'Weird' }, [`resource/case-banking/${guid(5)}`]],
  ])('%s with data failing its schema still reaches its resource', (eventType, data, expected) => {
    const delivery = parsed(eventType, data);
    expect(delivery.kind).toBe('invalid-data');
    expect(correlationKeys(delivery).map(resourceWorkflowId)).toEqual(expected);
  });

  test('ids that cannot be read leave the delivery unrouted', () => {
    expect(correlationKeys(parsed('IdentityVerification.Completed', { identity_request: { request_id: '' } }))).toEqual(
      [{ kind: 'unrouted', id: 'IdentityVerification.Completed' }],
    );
    expect(correlationKeys(parsed('DocumentProcessing.Completed', { document: 'nope' }))).toEqual([
      { kind: 'unrouted', id: 'DocumentProcessing.Completed' },
    ]);
  });
});

describe('document status words', () => {
  test.each([
    ['Success', 'Complete'],
    ['success', 'Complete'],
    ['Succeeded', 'Complete'],
    ['Completed', 'Complete'],
    ['Complete', 'Complete'],
    ['Failed', 'Failed'],
    ['Failure', 'Failed'],
    [' ERROR ', 'Failed'],
  ])('%s is read as %s', (word, status) => {
    const delivery = parsed('PayslipProcessing.Completed', { status: word, message: null, document });
    expect(delivery).toMatchObject({ kind: 'known', data: { status } });
    expect(
      documentSchema.parse({
        document_id: guid(1),
        file_name: 'f',
        document_type: null,
        status: word,
        message: null,
        entity_type: 'case',
        entity_id: 'e',
        extracted_data: null,
      }).status,
    ).toBe(status);
  });

  test('a word outside the rule is still refused, and the delivery still reaches its document', () => {
    const delivery = parsed('PayslipProcessing.Completed', { status: 'constructor', message: null, document });
    expect(delivery).toMatchObject({ kind: 'invalid-data', problems: [expect.stringContaining('data.status')] });
    expect(correlationKeys(delivery).map(resourceWorkflowId)).toEqual([`resource/document/${guid(1)}`]);
  });

  test('Processing still reads as Processing in a polled document', () => {
    expect(
      documentSchema.parse({
        document_id: guid(1),
        file_name: 'f',
        document_type: null,
        status: 'Processing',
        message: null,
        entity_type: 'case',
        entity_id: 'e',
        extracted_data: null,
      }).status,
    ).toBe('Processing');
  });
});

describe('bounded ids', () => {
  test('short ids are kept as they are', () => {
    expect(boundedId(guid(1))).toBe(guid(1));
    expect(resourceWorkflowId({ kind: 'idv', id: 'req-1' })).toBe('resource/idv/req-1');
  });

  test('long ids keep a readable head and a hash of the whole, within the bound, and stay distinct', () => {
    const a = `${'a'.repeat(300)}1`;
    const b = `${'a'.repeat(300)}2`;
    expect(boundedId(a)).toHaveLength(200);
    expect(boundedId(a).startsWith('a'.repeat(100))).toBe(true);
    expect(boundedId(a)).not.toBe(boundedId(b));
    expect(boundedId(a)).toBe(boundedId(a));
    expect(resourceWorkflowId({ kind: 'unrouted', id: 'x'.repeat(5000) }).length).toBeLessThanOrEqual(220);
    expect(boundedId('y'.repeat(500), 180)).toHaveLength(180);
  });
});
