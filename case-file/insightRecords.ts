/** Affordability insights with their transactions, and income-and-employer results; figures sealed (sealedRows.ts). */
import type { PoolClient } from 'pg';
import type { AffordabilityInsight, AffordabilityTransactions, IncomeEmployerResult } from '../provider';
import type { CaseFileAttempt } from './attempt';
import { writeTransactions } from './bankingRecords';
import type { FieldCipher } from './fieldCipher';
import { sealJson } from './sealedRows';

export async function writeAffordabilityInsight(
  client: PoolClient,
  cipher: FieldCipher,
  at: CaseFileAttempt,
  insight: AffordabilityInsight,
): Promise<void> {
  const sealed = sealJson(cipher, {
    monthly_income: insight.monthly_income,
    monthly_expenditure: insight.monthly_expenditure,
    monthly_disposable_income: insight.monthly_disposable_income,
  });
  await client.query(
    `INSERT INTO affordability_insights (case_id, attempt_id, request_id, status, currency, sealed)
     VALUES ($1, $2, $3, $4, $5, $6)
     ON CONFLICT (attempt_id, request_id) DO UPDATE SET status = EXCLUDED.status, currency = EXCLUDED.currency,
       sealed = EXCLUDED.sealed, monthly_income = NULL, monthly_expenditure = NULL, monthly_disposable_income = NULL`,
    [at.caseId, at.attemptId, insight.request_id, insight.status, insight.currency, sealed],
  );
}

export async function writeAffordabilityTransactions(
  client: PoolClient,
  cipher: FieldCipher,
  at: CaseFileAttempt,
  read: AffordabilityTransactions,
): Promise<void> {
  await writeTransactions(
    client,
    cipher,
    'affordability_transactions',
    'request_id',
    at,
    read.request_id,
    read.transactions,
  );
}

export async function writeIncomeEmployerResult(
  client: PoolClient,
  cipher: FieldCipher,
  at: CaseFileAttempt,
  result: IncomeEmployerResult,
): Promise<void> {
  const sealed = sealJson(cipher, {
    employer_name: result.employer_name,
    annual_income: result.annual_income,
    message: result.message,
    failure_detail: result.failure_detail,
  });
  await client.query(
    `INSERT INTO income_employer_results (case_id, attempt_id, request_id, status, currency, sealed)
     VALUES ($1, $2, $3, $4, $5, $6)
     ON CONFLICT (attempt_id, request_id) DO UPDATE SET status = EXCLUDED.status, currency = EXCLUDED.currency,
       sealed = EXCLUDED.sealed, employer_name = NULL, annual_income = NULL, message = NULL, failure_detail = NULL`,
    [at.caseId, at.attemptId, result.request_id, result.status, result.currency, sealed],
  );
}
