/**
 * What a history holds instead of provider data: a reference into the case file and a summary
 * small enough for a payload (docs/architecture.md, "The case file"). Pure (no Node built-ins, no
 * driver): the activities build these, and the workflows derive them from the full results that
 * older histories recorded.
 */
import type {
  AffordabilityInsight,
  BankAccount,
  BankBalances,
  CreditReport,
  IdentityVerificationResult,
  IncomeEmployerResult,
  ProviderDocument,
} from '../provider';

export type CaseFileRecord =
  | 'credit_report'
  | 'idv_result'
  | 'bank_account'
  | 'affordability_insight'
  | 'affordability_transactions'
  | 'income_employer_result'
  | 'provider_document';

/** Where the full data lies: the case, the step attempt (its workflow id) and the record's provider id. */
export interface CaseFileRef {
  case_id: string;
  attempt_id: string;
  record: CaseFileRecord;
  id: string;
}

export interface TransactionSpan {
  transactions: number;
  first_booking_date: string | null;
  last_booking_date: string | null;
}

export interface BankAccountSummary extends TransactionSpan {
  /** Null when derived from a history that holds the full account rather than a case-file reference. */
  case_file: CaseFileRef | null;
  account_connection_id: string;
  bank_name: string;
  account_number_masked: string | null;
  /** The `current` balance (else the first one the provider listed). */
  balance: { amount: number; currency: string } | null;
  /** How many balances the provider listed. */
  balances: number;
}

export interface TransactionsSummary extends TransactionSpan {
  case_file: CaseFileRef | null;
  request_id: string;
}

/** The insight's figures are the summary: a handful of numbers. */
export type AffordabilityInsightSummary = { case_file: CaseFileRef | null } & Pick<
  AffordabilityInsight,
  'request_id' | 'status' | 'currency' | 'monthly_income' | 'monthly_expenditure' | 'monthly_disposable_income'
>;

export type IncomeEmployerSummary = { case_file: CaseFileRef | null } & Pick<
  IncomeEmployerResult,
  'request_id' | 'status' | 'message' | 'employer_name' | 'annual_income' | 'currency' | 'failure_detail'
>;

/** The checks that decided the result stay in the case file; the journey needs the verdict. */
export type IdentityVerificationSummary = { case_file: CaseFileRef | null; checks: number } & Pick<
  IdentityVerificationResult,
  'request_id' | 'person_id' | 'status' | 'verification_status'
>;

/** What the provider made of an upload, without the data it extracted. */
export type ProviderDocumentSummary = { case_file: CaseFileRef | null } & Pick<
  ProviderDocument,
  'document_id' | 'file_name' | 'document_type' | 'status' | 'message'
>;

export interface CreditReportSummary {
  case_file: CaseFileRef | null;
  report_id: string;
  company_id: string;
  status: string;
  /** Shown to the operator who resolves it; names of companies, nobody's personal data. */
  picklist: CreditReport['picklist'];
  report: ReportHeadline | null;
}

/** What the journey shows of a resolved report; the rest stays in the case file. */
export interface ReportHeadline {
  provider_id: string;
  company_name: string;
  company_number: string | null;
  country_code: string | null;
  credit_score: number;
}

export function spanOf(transactions: readonly { booking_date: string }[]): TransactionSpan {
  let first: string | null = null;
  let last: string | null = null;
  for (const { booking_date } of transactions) {
    if (first === null || booking_date < first) first = booking_date;
    if (last === null || booking_date > last) last = booking_date;
  }
  return { transactions: transactions.length, first_booking_date: first, last_booking_date: last };
}

export function summariseBankAccount(
  account: BankAccount,
  balances: BankBalances,
  transactions: readonly { booking_date: string }[],
  ref: CaseFileRef | null,
): BankAccountSummary {
  const balance = balances.balances.find((b) => b.type === 'current') ?? balances.balances[0];
  return {
    case_file: ref,
    account_connection_id: account.account_connection_id,
    bank_name: account.bank_name,
    account_number_masked: account.account_number_masked,
    balance: balance ? { amount: balance.amount, currency: balance.currency } : null,
    balances: balances.balances.length,
    ...spanOf(transactions),
  };
}

export function reportHeadline(report: CreditReport['report'] | ReportHeadline | null): ReportHeadline | null {
  if (!report) return null;
  const { provider_id, company_name, company_number, country_code, credit_score } = report;
  return { provider_id, company_name, company_number, country_code, credit_score };
}

export function summariseCreditReport(report: CreditReport, ref: CaseFileRef | null): CreditReportSummary {
  return {
    case_file: ref,
    report_id: report.report_id,
    company_id: report.company_id,
    status: report.status,
    picklist: report.picklist,
    report: reportHeadline(report.report),
  };
}
