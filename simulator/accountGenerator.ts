/**
 * Bank accounts with details, balances and transactions for a case: the ids and amounts from the
 * store's seed, the dates counted back from today, so that the transactions are as recent as a
 * bank connected now would give (a lender's validity window is measured from the last one).
 */
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

const DAY_MS = 86_400_000;

/** The date `days` days before `today` (YYYY-MM-DD). */
const daysBefore = (today: number, days: number) => new Date(today - days * DAY_MS).toISOString().slice(0, 10);

export function generateAccount(
  store: SimulatorStore,
  caseId: string,
  volume?: AccountVolume,
  today = Date.now(),
): StoredAccount {
  const r = store.random;
  const id = r.guid();
  const salary = Math.round(2_000 + r.next() * 3_000);
  const transactions = volume
    ? monthsOfTransactions(store, salary, volume, today)
    : [
        {
          transaction_id: r.guid(),
          booking_date: daysBefore(today, 20),
          amount: salary,
          currency: 'GBP',
          description: 'Salary ACME WIDGETS',
          category: 'income',
        },
        ...outgoings.map(([description, category, amount], i) => ({
          transaction_id: r.guid(),
          booking_date: daysBefore(today, 14 - i * 3),
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
        { type: 'current', amount: balance, currency: 'GBP', as_of: `${daysBefore(today, 0)}T00:00:00Z` },
        { type: 'available', amount: balance + 500, currency: 'GBP', as_of: `${daysBefore(today, 0)}T00:00:00Z` },
      ],
    },
    transactions: { account_connection_id: id, transactions },
  };
  store.accounts.set(id, stored);
  return stored;
}

/**
 * `months` periods of 28 days back from today (the oldest first; the last transaction today), each
 * with the salary and then outgoings cycling through the usual ones, up to `transactionsPerMonth`
 * (the large cases of docs/benchmarks.md).
 */
function monthsOfTransactions(store: SimulatorStore, salary: number, volume: AccountVolume, today: number) {
  const transactions = [];
  // The days of a period that carry transactions: its last ones, up to every day of it.
  const span = Math.min(volume.transactionsPerMonth, 28);
  for (let m = volume.months - 1; m >= 0; m--) {
    for (let i = 0; i < volume.transactionsPerMonth; i++) {
      const outgoing = outgoings[i % outgoings.length]!;
      const [description, category, amount] = i === 0 ? ['Salary ACME WIDGETS', 'income', salary] : outgoing;
      transactions.push({
        transaction_id: store.random.guid(),
        booking_date: daysBefore(today, m * 28 + span - 1 - (i % span)),
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
