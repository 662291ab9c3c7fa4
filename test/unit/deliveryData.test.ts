/**
 * Steps read delivery data without parsing it again (workflows/deliveryData.ts), relying on the
 * bridge's verdict: what the bridge marks `known` passed its event type's schema, and the data it
 * forwards is the data as sent. Where a schema transforms (document status words), the step applies
 * the same rule (documentStatusOf) and must reach what the schema's output says.
 */
import { randomUUID } from 'node:crypto';
import { documentStatusOf, eventDataSchemas, parseDelivery } from '../../provider';
import { planDelivery } from '../../webhook-bridge/routeDelivery';
import { sentData } from '../../workflows/deliveryData';

const guid = () => randomUUID();
const link = 'https://provider.example/v2/x';

function bankStatement(status: string) {
  return {
    bank_connection_id: null,
    status,
    message: null,
    entity_type: 'Case',
    entity_id: guid(),
    document: { document_id: guid(), document_endpoint: link, file_name: 'statement.pdf' },
    connected_accounts: [
      {
        account_connection_id: guid(),
        bank_account_endpoint: link,
        bank_account_balances_endpoint: link,
        bank_account_transactions_endpoint: link,
        nickname: 'extra',
      },
    ],
  };
}

/** The delivery a resource workflow receives for this data, as the bridge plans it. */
function forwarded(eventType: string, data: Record<string, unknown>) {
  const parsed = parseDelivery({
    webhook_id: 'w',
    webhook_name: 'n',
    datetime_sent: '2026-01-13T10:00:00Z',
    event_type: eventType,
    data,
  });
  const routed = planDelivery(parsed, data, { batchId: guid(), receivedAt: '2026-01-13T10:00:01Z' });
  const target = routed.targets.find((t) => t.resource.kind === 'case-banking');
  if (!target) throw new Error('no case-banking target');
  return target.delivery;
}

test.each(['Complete', 'Success', 'succeeded', ' FAILED ', 'error'])(
  'a bank statement sent as %j reads, through the word rule, as the schema reads it',
  (word) => {
    const data = bankStatement(word);
    const delivery = forwarded('BankStatementProcessing.Completed', data);
    expect(delivery.parse).toBe('known');
    const sent = sentData(delivery, 'BankStatementProcessing.Completed');
    expect(sent?.status).toBe(word);
    const schema = eventDataSchemas['BankStatementProcessing.Completed'].parse(data);
    expect(documentStatusOf(sent?.status ?? '')).toBe(schema.status);
  },
);

test('a status word outside the rule makes the delivery invalid-data, which no step reads', () => {
  const delivery = forwarded('BankStatementProcessing.Completed', bankStatement('Pending'));
  expect(delivery.parse).toBe('invalid-data');
  expect(sentData(delivery, 'BankStatementProcessing.Completed')).toBeUndefined();
});

test('data is read only under its own event type', () => {
  const delivery = forwarded('BankStatementProcessing.Completed', bankStatement('Complete'));
  expect(sentData(delivery, 'BankingProcessing.Completed')).toBeUndefined();
});
