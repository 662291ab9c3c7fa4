/**
 * What the console's case page shows of the evidence: the credit report's headline,
 * the IDV verdicts, each bank account with its balances, and per account the money in and out by
 * month, summed here so that a case with thousands of transactions costs the console one small
 * answer, not every row (the amounts are sealed, so the database cannot sum them).
 */
import type { PoolClient } from 'pg';
import type { FieldCipher } from './fieldCipher';
import { openRows } from './sealedRows';
import { openCreditReportRow } from './verificationRecords';

export interface DeskEvidence {
  creditReports: {
    attemptId: string;
    reportId: string;
    status: string;
    companyName: string | null;
    companyNumber: string | null;
    creditScore: number | null;
    creditLimit: number | null;
    currency: string | null;
  }[];
  idvResults: {
    attemptId: string;
    requestId: string;
    personId: string;
    status: string;
    verificationStatus: string | null;
  }[];
  bankAccounts: {
    attemptId: string;
    accountConnectionId: string;
    bankName: string;
    accountName: string;
    accountNumberMasked: string | null;
    currency: string;
    balances: { type: string; amount: number; currency: string; as_of: string }[];
    /** Oldest month first; `month` is YYYY-MM. */
    months: { month: string; moneyIn: number; moneyOut: number }[];
  }[];
}

type Row = Record<string, unknown>;
const num = (value: unknown) => (value == null ? null : Number(value));

export async function readDeskEvidence(client: PoolClient, cipher: FieldCipher, caseId: string): Promise<DeskEvidence> {
  const rows = async (sql: string) => openRows(cipher, (await client.query<Row>(sql, [caseId])).rows);
  const reports = await Promise.all(
    (
      await client.query<Row>(
        'SELECT attempt_id, report_id, status, report, sealed FROM credit_reports WHERE case_id = $1 ORDER BY recorded_at',
        [caseId],
      )
    ).rows.map((r) => openCreditReportRow(cipher, r)),
  );
  const idv = await rows(
    'SELECT attempt_id, request_id, person_id, status, verification_status FROM ' +
      'idv_results WHERE case_id = $1 ORDER BY recorded_at',
  );
  const accounts = await rows(
    'SELECT * FROM bank_accounts WHERE case_id = $1 ORDER BY recorded_at, account_connection_id',
  );
  const months = monthlyTotals(
    await rows(
      `SELECT attempt_id, account_connection_id, to_char(booking_date, 'YYYY-MM') AS month, amount, sealed
       FROM bank_transactions WHERE case_id = $1 ORDER BY 3`,
    ),
  );
  return {
    creditReports: reports.map((r) => {
      const report = (r.report ?? {}) as Row;
      return {
        attemptId: r.attempt_id as string,
        reportId: r.report_id as string,
        status: r.status as string,
        companyName: (report.company_name as string | undefined) ?? null,
        companyNumber: (report.company_number as string | undefined) ?? null,
        creditScore: num(report.credit_score),
        creditLimit: num(report.credit_limit),
        currency: (report.currency as string | undefined) ?? null,
      };
    }),
    idvResults: idv.map((r) => ({
      attemptId: r.attempt_id as string,
      requestId: r.request_id as string,
      personId: r.person_id as string,
      status: r.status as string,
      verificationStatus: (r.verification_status as string | null) ?? null,
    })),
    bankAccounts: accounts.map((a) => ({
      attemptId: a.attempt_id as string,
      accountConnectionId: a.account_connection_id as string,
      bankName: a.bank_name as string,
      accountName: a.account_name as string,
      accountNumberMasked: (a.account_number_masked as string | null) ?? null,
      currency: a.currency as string,
      balances: a.balances as DeskEvidence['bankAccounts'][number]['balances'],
      months: months.get(accountKey(a)) ?? [],
    })),
  };
}

type Month = DeskEvidence['bankAccounts'][number]['months'][number];

const accountKey = (row: Row) => JSON.stringify([row.attempt_id, row.account_connection_id]);

/** Money in and out per account and month, from transactions ordered by month. */
function monthlyTotals(transactions: readonly Row[]): Map<string, Month[]> {
  const byAccount = new Map<string, Month[]>();
  for (const t of transactions) {
    const months = byAccount.get(accountKey(t)) ?? [];
    byAccount.set(accountKey(t), months);
    const last = months.at(-1);
    const month: Month = last && last.month === t.month ? last : { month: t.month as string, moneyIn: 0, moneyOut: 0 };
    if (month !== last) months.push(month);
    const amount = Number(t.amount);
    if (amount > 0) month.moneyIn = decimal(month.moneyIn + amount);
    else month.moneyOut = decimal(month.moneyOut - amount);
  }
  return byAccount;
}

/** A running sum of amounts without binary fractions' residue (0.1 + 0.2 is 0.3). */
const decimal = (value: number) => Number(value.toFixed(9));
