/** Workflows read a read activity's result in either shape: today's summary, or the full data older histories recorded. */
import { accountSummaryOf, transactionCountOf } from '../../workflows/caseFileResults';
import type { BankAccountSummary } from '../../case-file/summaries';

const id = '0b6f6a5e-7f53-4a5c-9d4a-9d0f3f6f1c11';
const legacy = {
  account: { account_connection_id: id, bank_name: 'Northwind Bank', account_name: 'Current Account', sort_code: '12-34-56', account_number_masked: '****1234', currency: 'GBP' },
  balances: { account_connection_id: id, balances: [{ type: 'available', amount: 1500, currency: 'GBP', as_of: '2026-11-20T00:00:00Z' }, { type: 'current', amount: 1000, currency: 'GBP', as_of: '2026-11-20T00:00:00Z' }] },
  transactions: {
    account_connection_id: id,
    transactions: [
      { transaction_id: 't2', booking_date: '2026-11-05', amount: -10, currency: 'GBP', description: 'Cafe', category: null },
      { transaction_id: 't1', booking_date: '2026-10-28', amount: 2000, currency: 'GBP', description: 'Salary', category: 'income' },
    ],
  },
};

test('a full account read from an older history becomes the summary, without a case file reference', () => {
  expect(accountSummaryOf(legacy)).toEqual({
    case_file: null,
    account_connection_id: id,
    bank_name: 'Northwind Bank',
    account_number_masked: '****1234',
    balance: { amount: 1000, currency: 'GBP' },
    balances: 2,
    transactions: 2,
    first_booking_date: '2026-10-28',
    last_booking_date: '2026-11-05',
  });
});

test('a summary is taken as it is', () => {
  const summary: BankAccountSummary = { ...accountSummaryOf(legacy), case_file: { case_id: 'c', attempt_id: 'case/c/banking', record: 'bank_account', id } };
  expect(accountSummaryOf(summary)).toBe(summary);
});

test('transactions count in either shape', () => {
  expect(transactionCountOf({ request_id: 'r', transactions: legacy.transactions.transactions })).toBe(2);
  expect(transactionCountOf({ case_file: null, request_id: 'r', transactions: 7, first_booking_date: null, last_booking_date: null })).toBe(7);
});
