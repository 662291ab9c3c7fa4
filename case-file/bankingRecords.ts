/** Bank accounts with their balances and transactions, per case and step attempt; details sealed (sealedRows.ts). */
import type { PoolClient } from 'pg';
import type { BankAccount, BankBalances, BankTransactions } from '../provider';
import type { CaseFileAttempt } from './attempt';
import type { FieldCipher } from './fieldCipher';
import { sealJson } from './sealedRows';

export async function writeBankAccount(
  client: PoolClient,
  cipher: FieldCipher,
  at: CaseFileAttempt,
  account: BankAccount,
  balances: BankBalances,
  transactions: BankTransactions,
): Promise<void> {
  const sealed = sealJson(cipher, {
    bank_name: account.bank_name,
    account_name: account.account_name,
    sort_code: account.sort_code,
    account_number_masked: account.account_number_masked,
    balances: balances.balances,
  });
  await client.query(
    `INSERT INTO bank_accounts (case_id, attempt_id, account_connection_id, currency, sealed)
     VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (attempt_id, account_connection_id) DO UPDATE SET currency = EXCLUDED.currency,
       sealed = EXCLUDED.sealed, bank_name = NULL, account_name = NULL, sort_code = NULL,
       account_number_masked = NULL, balances = NULL`,
    [at.caseId, at.attemptId, account.account_connection_id, account.currency, sealed],
  );
  await writeTransactions(
    client,
    cipher,
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
 * in one round trip), amount, description and category sealed. A transaction already written by an
 * earlier try of the activity stays as it is.
 */
export async function writeTransactions(
  client: PoolClient,
  cipher: FieldCipher,
  table: 'bank_transactions' | 'affordability_transactions',
  ownerColumn: 'account_connection_id' | 'request_id',
  at: CaseFileAttempt,
  ownerId: string,
  transactions: readonly Transaction[],
): Promise<void> {
  if (transactions.length === 0) return;
  const column = <K extends keyof Transaction>(key: K) => transactions.map((t) => t[key]);
  const sealed = transactions.map((t) =>
    sealJson(cipher, { amount: t.amount, description: t.description, category: t.category }),
  );
  await client.query(
    `INSERT INTO ${table} (case_id, attempt_id, ${ownerColumn}, transaction_id, booking_date, currency, sealed)
     SELECT $1, $2, $3, * FROM unnest($4::text[], $5::date[], $6::text[], $7::bytea[])
     ON CONFLICT DO NOTHING`,
    [at.caseId, at.attemptId, ownerId, column('transaction_id'), column('booking_date'), column('currency'), sealed],
  );
}
