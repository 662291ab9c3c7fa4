/** Deterministic bank accounts with details, balances and transactions for a case. */
import type { SimulatorStore, StoredAccount } from './store';

const banks = ['Northwind Bank', 'Contoso Building Society', 'Fabrikam Bank'];
const outgoings = [
  ['Rent', 'housing', -950],
  ['Grocer', 'groceries', -82.4],
  ['Energy Co', 'utilities', -120],
  ['Mobile', 'utilities', -25],
  ['Cafe', 'leisure', -7.5],
] as const;

/** How much history an account has: by default a month's salary and five outgoings (the simulator's first shape). */
export interface AccountVolume {
  months: number;
  transactionsPerMonth: number;
}

export function generateAccount(store: SimulatorStore, caseId: string, volume?: AccountVolume): StoredAccount {
  const r = store.random;
  const id = r.guid();
  const salary = Math.round(2_000 + r.next() * 3_000);
  const transactions = volume
    ? monthsOfTransactions(store, salary, volume)
    : [
        {
          transaction_id: r.guid(),
          booking_date: '2026-10-28',
          amount: salary,
          currency: 'GBP',
          description: 'Salary ACME WIDGETS',
          category: 'income',
        },
        ...outgoings.map(([description, category, amount], i) => ({
          transaction_id: r.guid(),
          booking_date: `2026-11-${String(2 + i * 3).padStart(2, '0')}`,
          amount,
          currency: 'GBP',
          description,
          category,
        })),
      ];
  const balance = Math.round((salary + outgoings.reduce((sum, [, , a]) => sum + a, 0)) * 100) / 100;
  const stored: StoredAccount = {
    case_id: caseId,
    account: {
      account_connection_id: id,
      bank_name: r.pick(banks),
      account_name: 'Current Account',
      sort_code:
        `${Math.floor(10 + r.next() * 89)}-` +
        `${Math.floor(10 + r.next() * 89)}-` +
        `${Math.floor(10 + r.next() * 89)}`,
      account_number_masked: `****${Math.floor(1000 + r.next() * 8999)}`,
      currency: 'GBP',
    },
    balances: {
      account_connection_id: id,
      balances: [
        { type: 'current', amount: balance, currency: 'GBP', as_of: '2026-11-20T00:00:00Z' },
        { type: 'available', amount: balance + 500, currency: 'GBP', as_of: '2026-11-20T00:00:00Z' },
      ],
    },
    transactions: { account_connection_id: id, transactions },
  };
  store.accounts.set(id, stored);
  return stored;
}

/**
 * `months` months back from November 2026, each with the salary and then outgoings cycling
 * through the usual ones, up to `transactionsPerMonth` (the large cases of docs/benchmarks.md).
 */
function monthsOfTransactions(store: SimulatorStore, salary: number, volume: AccountVolume) {
  const transactions = [];
  for (let m = 0; m < volume.months; m++) {
    const month = new Date(Date.UTC(2026, 10 - m, 1));
    const prefix = month.toISOString().slice(0, 8);
    for (let i = 0; i < volume.transactionsPerMonth; i++) {
      const day = String(1 + (i % 28)).padStart(2, '0');
      const outgoing = outgoings[i % outgoings.length]!;
      const [description, category, amount] = i === 0 ? ['Salary ACME WIDGETS', 'income', salary] : outgoing;
      transactions.push({
        transaction_id: store.random.guid(),
        booking_date: `${prefix}${day}`,
        amount,
        currency: 'GBP',
        description,
        category,
      });
    }
  }
  return transactions;
}

/** The `connected_accounts` entry of §6.6 with ready-made endpoint URLs. */
export function connectedAccount(baseUrl: string, account: StoredAccount) {
  const id = account.account.account_connection_id;
  return {
    account_connection_id: id,
    bank_account_endpoint: `${baseUrl}/v2/bankaccounts/${id}`,
    bank_account_balances_endpoint: `${baseUrl}/v2/bankaccounts/${id}/balances`,
    bank_account_transactions_endpoint: `${baseUrl}/v2/bankaccounts/${id}/transactions`,
  };
}
