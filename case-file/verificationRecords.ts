/** Credit reports and identity verification results, their contents sealed (sealedRows.ts). */
import type { PoolClient } from 'pg';
import type { CreditReport, IdentityVerificationResult } from '../provider';
import type { CaseFileAttempt } from './attempt';
import type { FieldCipher } from './fieldCipher';
import { openJson, openRow, sealJson } from './sealedRows';

type Row = Record<string, unknown>;

/**
 * A report is written on each read: TooManyResults first, then the resolved report, same row. The
 * company's name stays plain: the queue's name search reads it.
 */
export async function writeCreditReport(
  client: PoolClient,
  cipher: FieldCipher,
  at: CaseFileAttempt,
  report: CreditReport,
): Promise<void> {
  const sealedPicklist = report.picklist ? await sealJson(cipher, report.picklist) : null;
  await client.query(
    `INSERT INTO credit_reports (case_id, attempt_id, report_id, company_id, status, company_name, sealed,
       picklist_sealed)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
     ON CONFLICT (attempt_id, report_id) DO UPDATE SET status = EXCLUDED.status,
       company_name = EXCLUDED.company_name, sealed = EXCLUDED.sealed, report = NULL,
       picklist_sealed = COALESCE(EXCLUDED.picklist_sealed, credit_reports.picklist_sealed),
       picklist = CASE WHEN EXCLUDED.picklist_sealed IS NULL THEN credit_reports.picklist END,
       recorded_at = now()`,
    [
      at.caseId,
      at.attemptId,
      report.report_id,
      report.company_id,
      report.status,
      report.report?.company_name ?? null,
      await sealJson(cipher, { report: report.report }),
      sealedPicklist,
    ],
  );
}

export async function writeIdentityVerificationResult(
  client: PoolClient,
  cipher: FieldCipher,
  at: CaseFileAttempt,
  result: IdentityVerificationResult,
): Promise<void> {
  await client.query(
    `INSERT INTO idv_results (case_id, attempt_id, request_id, person_id, status, verification_status, sealed)
     VALUES ($1, $2, $3, $4, $5, $6, $7)
     ON CONFLICT (attempt_id, request_id) DO UPDATE SET status = EXCLUDED.status,
       verification_status = EXCLUDED.verification_status,
       sealed = EXCLUDED.sealed, result = NULL, recorded_at = now()`,
    [
      at.caseId,
      at.attemptId,
      result.request_id,
      result.person_id,
      result.status,
      result.verification_status,
      await sealJson(cipher, { result }),
    ],
  );
}

/** A credit report row as written, whether sealed or written before the case file encrypted. */
export async function openCreditReportRow(cipher: FieldCipher, row: Row): Promise<Row> {
  const { picklist_sealed, ...rest } = await openRow(cipher, row);
  if (!Buffer.isBuffer(picklist_sealed)) return rest;
  return { ...rest, picklist: await openJson(cipher, picklist_sealed) };
}
