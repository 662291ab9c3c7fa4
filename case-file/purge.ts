/**
 * Erasure: every row of a case, documents and their bytes included, and the names of its company
 * and people (case_parties). The read model's state (ids, states, reasons) and the operator audit
 * trail stay: a purged case can still be read and accounted for. Whether the case may be purged
 * (its journey closed) is the caller's decision (cli/journeyCommands.ts).
 */
import type { PoolClient } from 'pg';
import { caseTables, type CaseTable } from './evidence';

/** Children before parents; `document_contents` goes with `documents` (ON DELETE CASCADE). */
const deletionOrder: readonly CaseTable[] = [
  'bank_transactions',
  'bank_accounts',
  'affordability_transactions',
  'affordability_insights',
  'credit_reports',
  'idv_results',
  'income_employer_results',
  'provider_documents',
  'documents',
];

export async function purgeCase(client: PoolClient, caseId: string): Promise<Record<CaseTable | 'case_parties', number>> {
  const deleted = {} as Record<CaseTable, number>;
  for (const table of deletionOrder) deleted[table] = (await client.query(`DELETE FROM ${table} WHERE case_id = $1`, [caseId])).rowCount ?? 0;
  if (Object.keys(deleted).length !== caseTables.length) throw new Error('purge misses a table of the case file');
  const parties = (await client.query('DELETE FROM case_parties WHERE case_id = $1', [caseId])).rowCount ?? 0;
  return { ...deleted, case_parties: parties };
}
