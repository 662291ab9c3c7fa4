/**
 * The case file: per case and step attempt (`attempt_id` is the step attempt's workflow id,
 * `case/<caseId>/<step>[/<n>]`), what the provider returned. Rows are keyed by the provider's ids
 * within the attempt, so a retried activity writes the same rows again, not new ones. Documents
 * are stored once per case (`sha256`), their bytes in a table of their own so that listing them
 * never reads the bytes.
 */
export const sql = `
CREATE TABLE credit_reports (
  case_id text NOT NULL,
  attempt_id text NOT NULL,
  report_id text NOT NULL,
  company_id text NOT NULL,
  status text NOT NULL,
  report jsonb,
  picklist jsonb,
  recorded_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (attempt_id, report_id)
);
CREATE INDEX credit_reports_case ON credit_reports (case_id);

CREATE TABLE idv_results (
  case_id text NOT NULL,
  attempt_id text NOT NULL,
  request_id text NOT NULL,
  person_id text NOT NULL,
  status text NOT NULL,
  verification_status text,
  result jsonb NOT NULL,
  recorded_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (attempt_id, request_id)
);
CREATE INDEX idv_results_case ON idv_results (case_id);

CREATE TABLE bank_accounts (
  case_id text NOT NULL,
  attempt_id text NOT NULL,
  account_connection_id text NOT NULL,
  bank_name text NOT NULL,
  account_name text NOT NULL,
  sort_code text,
  account_number_masked text,
  currency text NOT NULL,
  balances jsonb NOT NULL,
  recorded_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (attempt_id, account_connection_id)
);
CREATE INDEX bank_accounts_case ON bank_accounts (case_id);

CREATE TABLE bank_transactions (
  case_id text NOT NULL,
  attempt_id text NOT NULL,
  account_connection_id text NOT NULL,
  transaction_id text NOT NULL,
  booking_date date NOT NULL,
  amount numeric NOT NULL,
  currency text NOT NULL,
  description text NOT NULL,
  category text,
  PRIMARY KEY (attempt_id, account_connection_id, transaction_id),
  FOREIGN KEY (attempt_id, account_connection_id) REFERENCES bank_accounts (attempt_id, account_connection_id) ON DELETE CASCADE
);
CREATE INDEX bank_transactions_case ON bank_transactions (case_id);

CREATE TABLE affordability_insights (
  case_id text NOT NULL,
  attempt_id text NOT NULL,
  request_id text NOT NULL,
  status text NOT NULL,
  currency text NOT NULL,
  monthly_income numeric,
  monthly_expenditure numeric,
  monthly_disposable_income numeric,
  recorded_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (attempt_id, request_id)
);
CREATE INDEX affordability_insights_case ON affordability_insights (case_id);

CREATE TABLE affordability_transactions (
  case_id text NOT NULL,
  attempt_id text NOT NULL,
  request_id text NOT NULL,
  transaction_id text NOT NULL,
  booking_date date NOT NULL,
  amount numeric NOT NULL,
  currency text NOT NULL,
  description text NOT NULL,
  category text,
  PRIMARY KEY (attempt_id, request_id, transaction_id)
);
CREATE INDEX affordability_transactions_case ON affordability_transactions (case_id);

CREATE TABLE income_employer_results (
  case_id text NOT NULL,
  attempt_id text NOT NULL,
  request_id text NOT NULL,
  status text NOT NULL,
  employer_name text,
  annual_income numeric,
  currency text NOT NULL,
  message text,
  failure_detail text,
  recorded_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (attempt_id, request_id)
);
CREATE INDEX income_employer_results_case ON income_employer_results (case_id);

CREATE TABLE documents (
  document_id uuid PRIMARY KEY,
  case_id text NOT NULL,
  file_name text NOT NULL,
  document_type text,
  size_bytes bigint NOT NULL,
  sha256 text NOT NULL,
  uploaded_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (case_id, sha256)
);

CREATE TABLE document_contents (
  document_id uuid PRIMARY KEY REFERENCES documents (document_id) ON DELETE CASCADE,
  content bytea NOT NULL
);

CREATE TABLE provider_documents (
  case_id text NOT NULL,
  attempt_id text NOT NULL,
  provider_document_id text NOT NULL,
  document_id uuid REFERENCES documents (document_id) ON DELETE CASCADE,
  file_name text NOT NULL,
  document_type text,
  status text NOT NULL,
  message text,
  extracted_data jsonb,
  recorded_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (attempt_id, provider_document_id)
);
CREATE INDEX provider_documents_case ON provider_documents (case_id);
`;
