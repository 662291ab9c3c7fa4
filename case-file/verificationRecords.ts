/** Credit reports and identity verification results. */
import type { PoolClient } from 'pg';
import type { CreditReport, IdentityVerificationResult } from '../provider';
import type { CaseFileAttempt } from './attempt';

/** A report is written on each read: TooManyResults first, then the resolved report, same row. */
export async function writeCreditReport(client: PoolClient, at: CaseFileAttempt, report: CreditReport): Promise<void> {
  await client.query(
    `INSERT INTO credit_reports (case_id, attempt_id, report_id, company_id, status, report, picklist)
     VALUES ($1, $2, $3, $4, $5, $6, $7)
     ON CONFLICT (attempt_id, report_id) DO UPDATE SET status = EXCLUDED.status, report = EXCLUDED.report,
       picklist = COALESCE(EXCLUDED.picklist, credit_reports.picklist), recorded_at = now()`,
    [
      at.caseId,
      at.attemptId,
      report.report_id,
      report.company_id,
      report.status,
      json(report.report),
      json(report.picklist),
    ],
  );
}

export async function writeIdentityVerificationResult(
  client: PoolClient,
  at: CaseFileAttempt,
  result: IdentityVerificationResult,
): Promise<void> {
  await client.query(
    `INSERT INTO idv_results (case_id, attempt_id, request_id, person_id, status, verification_status, result)
     VALUES ($1, $2, $3, $4, $5, $6, $7)
     ON CONFLICT (attempt_id, request_id) DO UPDATE SET status = EXCLUDED.status,
       verification_status = EXCLUDED.verification_status,
       result = EXCLUDED.result, recorded_at = now()`,
    [
      at.caseId,
      at.attemptId,
      result.request_id,
      result.person_id,
      result.status,
      result.verification_status,
      JSON.stringify(result),
    ],
  );
}

const json = (value: unknown) => (value === null || value === undefined ? null : JSON.stringify(value));
