/** Bank accounts with their balances and transactions, per case and step attempt. */
import type { PoolClient } from 'pg';
import type { BankAccount, BankBalances, BankTransactions } from '../provider';
import type { CaseFileAttempt } from './attempt';

export async function writeBankAccount(
  client: PoolClient,
  at: CaseFileAttempt,
  account: BankAccount,
  balances: BankBalances,
  transactions: BankTransactions,
): Promise<void> {
  await client.query(
    `INSERT INTO bank_accounts (case_id, attempt_id, account_connection_id, bank_name, account_name, sort_code,
       account_number_masked, currency, balances)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
     ON CONFLICT (attempt_id, account_connection_id) DO UPDATE SET bank_name = EXCLUDED.bank_name,
       account_name = EXCLUDED.account_name,
       sort_code = EXCLUDED.sort_code, account_number_masked = EXCLUDED.account_number_masked,
       currency = EXCLUDED.currency, balances = EXCLUDED.balances`,
    [
      at.caseId,
      at.attemptId,
      account.account_connection_id,
      account.bank_name,
      account.account_name,
      account.sort_code,
      account.account_number_masked,
      account.currency,
      JSON.stringify(balances.balances),
    ],
  );
  await writeTransactions(
    client,
    'bank_transactions',
    'account_connection_id',
    at,
    account.account_connection_id,
    transactions.transactions,
  );
}

type Transaction = BankTransactions['transactions'][number];

/**
 * All of one owner's transactions in one statement (arrays unnested server-side: thousands of rows
 * in one round trip). A transaction already written by an earlier try of the activity stays as it is.
 */
export async function writeTransactions(
  client: PoolClient,
  table: 'bank_transactions' | 'affordability_transactions',
  ownerColumn: 'account_connection_id' | 'request_id',
  at: CaseFileAttempt,
  ownerId: string,
  transactions: readonly Transaction[],
): Promise<void> {
  if (transactions.length === 0) return;
  const column = <K extends keyof Transaction>(key: K) => transactions.map((t) => t[key]);
  await client.query(
    `INSERT INTO ${table} (case_id, attempt_id, ${ownerColumn}, transaction_id, booking_date, amount, currency,
       description, category)
     SELECT $1, $2, $3, * FROM unnest($4::text[], $5::date[], $6::numeric[], $7::text[], $8::text[], $9::text[])
     ON CONFLICT DO NOTHING`,
    [
      at.caseId,
      at.attemptId,
      ownerId,
      column('transaction_id'),
      column('booking_date'),
      column('amount'),
      column('currency'),
      column('description'),
      column('category'),
    ],
  );
}
