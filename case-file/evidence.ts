/** Reading a case's file: everything it holds (for `journey evidence`), or just how much. */
import type { PoolClient } from 'pg';
import { caseDocuments, type StoredDocument } from './documentRecords';
import type { FieldCipher } from './fieldCipher';
import { casePurchases, type Purchase } from './purchaseLedger';
import { openRows } from './sealedRows';
import { openCreditReportRow } from './verificationRecords';

export const caseTables = [
  'credit_reports',
  'idv_results',
  'bank_accounts',
  'bank_transactions',
  'affordability_insights',
  'affordability_transactions',
  'income_employer_results',
  'provider_documents',
  'documents',
] as const;
export type CaseTable = (typeof caseTables)[number];

export type CaseFileCounts = Record<CaseTable, number> & { document_bytes: number };

type Row = Record<string, unknown>;

export interface CaseEvidence {
  caseId: string;
  creditReports: Row[];
  idvResults: Row[];
  bankAccounts: (Row & { transactions: Row[] })[];
  affordabilityInsights: (Row & { transactions: Row[] })[];
  incomeEmployerResults: Row[];
  providerDocuments: Row[];
  /** Metadata only: the bytes are exported one document at a time. */
  documents: StoredDocument[];
  /** What the journey bought for the case, call by call, and what it could not tell (purchaseLedger.ts). */
  purchases: Purchase[];
}

export async function countCaseFile(client: PoolClient, caseId: string): Promise<CaseFileCounts> {
  const counts = {} as CaseFileCounts;
  for (const table of caseTables) {
    const result = await client.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table} WHERE case_id = $1`, [
      caseId,
    ]);
    counts[table] = result.rows[0]?.n ?? 0;
  }
  const bytes = await client.query<{ n: number }>(
    'SELECT coalesce(sum(size_bytes), 0)::float8 AS n FROM documents WHERE case_id = $1',
    [caseId],
  );
  counts.document_bytes = bytes.rows[0]?.n ?? 0;
  return counts;
}

/** Everything the case file holds of a case, its sealed fields opened. */
export async function readEvidence(client: PoolClient, cipher: FieldCipher, caseId: string): Promise<CaseEvidence> {
  const rows = async (sql: string) => openRows(cipher, (await client.query<Row>(sql, [caseId])).rows);
  const reports = (
    await client.query<Row>('SELECT * FROM credit_reports WHERE case_id = $1 ORDER BY attempt_id, recorded_at', [
      caseId,
    ])
  ).rows;
  const accounts = await rows(
    'SELECT * FROM bank_accounts WHERE case_id = $1 ORDER BY attempt_id, recorded_at, account_connection_id',
  );
  const bankTransactions = await rows(
    'SELECT * FROM bank_transactions WHERE case_id = $1 ORDER BY booking_date, transaction_id',
  );
  const insights = await rows(
    'SELECT * FROM affordability_insights WHERE case_id = $1 ORDER BY attempt_id, recorded_at',
  );
  const insightTransactions = await rows(
    'SELECT * FROM affordability_transactions WHERE case_id = $1 ORDER BY booking_date, transaction_id',
  );
  return {
    caseId,
    creditReports: await Promise.all(reports.map((r) => openCreditReportRow(cipher, r))),
    idvResults: await rows('SELECT * FROM idv_results WHERE case_id = $1 ORDER BY attempt_id, recorded_at'),
    bankAccounts: accounts.map((a) => ({
      ...a,
      transactions: bankTransactions.filter(
        (t) => t.attempt_id === a.attempt_id && t.account_connection_id === a.account_connection_id,
      ),
    })),
    affordabilityInsights: insights.map((i) => ({
      ...i,
      transactions: insightTransactions.filter((t) => t.attempt_id === i.attempt_id && t.request_id === i.request_id),
    })),
    incomeEmployerResults: await rows(
      'SELECT * FROM income_employer_results WHERE case_id = $1 ORDER BY attempt_id, recorded_at',
    ),
    providerDocuments: await rows(
      'SELECT * FROM provider_documents WHERE case_id = $1 ORDER BY attempt_id, recorded_at',
    ),
    documents: await caseDocuments(client, cipher, caseId),
    purchases: await casePurchases(client, cipher, caseId),
  };
}
