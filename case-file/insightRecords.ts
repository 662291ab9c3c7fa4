/** Affordability insights with their transactions, and income-and-employer results. */
import type { PoolClient } from 'pg';
import type { AffordabilityInsight, AffordabilityTransactions, IncomeEmployerResult } from '../provider';
import type { CaseFileAttempt } from './attempt';
import { writeTransactions } from './bankingRecords';

export async function writeAffordabilityInsight(
  client: PoolClient,
  at: CaseFileAttempt,
  insight: AffordabilityInsight,
): Promise<void> {
  await client.query(
    `INSERT INTO affordability_insights (case_id, attempt_id, request_id, status, currency, monthly_income,
       monthly_expenditure, monthly_disposable_income)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
     ON CONFLICT (attempt_id, request_id) DO UPDATE SET status = EXCLUDED.status, currency = EXCLUDED.currency,
       monthly_income = EXCLUDED.monthly_income,
       monthly_expenditure = EXCLUDED.monthly_expenditure,
       monthly_disposable_income = EXCLUDED.monthly_disposable_income`,
    [
      at.caseId,
      at.attemptId,
      insight.request_id,
      insight.status,
      insight.currency,
      insight.monthly_income,
      insight.monthly_expenditure,
      insight.monthly_disposable_income,
    ],
  );
}

export async function writeAffordabilityTransactions(
  client: PoolClient,
  at: CaseFileAttempt,
  read: AffordabilityTransactions,
): Promise<void> {
  await writeTransactions(client, 'affordability_transactions', 'request_id', at, read.request_id, read.transactions);
}

export async function writeIncomeEmployerResult(
  client: PoolClient,
  at: CaseFileAttempt,
  result: IncomeEmployerResult,
): Promise<void> {
  await client.query(
    `INSERT INTO income_employer_results (case_id, attempt_id, request_id, status, employer_name, annual_income,
       currency, message, failure_detail)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
     ON CONFLICT (attempt_id, request_id) DO UPDATE SET status = EXCLUDED.status,
       employer_name = EXCLUDED.employer_name, annual_income = EXCLUDED.annual_income,
       currency = EXCLUDED.currency, message = EXCLUDED.message, failure_detail = EXCLUDED.failure_detail`,
    [
      at.caseId,
      at.attemptId,
      result.request_id,
      result.status,
      result.employer_name,
      result.annual_income,
      result.currency,
      result.message,
      result.failure_detail,
    ],
  );
}
