/**
 * The provider's payloads and the applicant's documents are encrypted at rest (case-file/sealedRows.ts):
 * each table gets a `sealed` bytea column holding its personal and financial fields, encrypted with
 * the payload keys; those plain columns become nullable and new rows leave them NULL. Ids, states,
 * dates, currencies, sizes and hashes stay plain, as does a credit report's company name (the
 * queue's name search reads it; a company's name, nobody's personal data), backfilled here.
 *
 * A migration has no keys, so rows written before this one keep their plain columns and are read as
 * they are; new writes of a row (a step retried) seal it.
 */
export const sql = `
ALTER TABLE credit_reports ADD COLUMN company_name text, ADD COLUMN sealed bytea, ADD COLUMN picklist_sealed bytea;
UPDATE credit_reports SET company_name = report->>'company_name' WHERE report IS NOT NULL;

ALTER TABLE idv_results ADD COLUMN sealed bytea, ALTER COLUMN result DROP NOT NULL;

ALTER TABLE bank_accounts ADD COLUMN sealed bytea, ALTER COLUMN bank_name DROP NOT NULL,
  ALTER COLUMN account_name DROP NOT NULL, ALTER COLUMN balances DROP NOT NULL;

ALTER TABLE bank_transactions ADD COLUMN sealed bytea, ALTER COLUMN amount DROP NOT NULL,
  ALTER COLUMN description DROP NOT NULL;

ALTER TABLE affordability_transactions ADD COLUMN sealed bytea, ALTER COLUMN amount DROP NOT NULL,
  ALTER COLUMN description DROP NOT NULL;

ALTER TABLE affordability_insights ADD COLUMN sealed bytea;

ALTER TABLE income_employer_results ADD COLUMN sealed bytea;

ALTER TABLE documents ADD COLUMN sealed bytea, ALTER COLUMN file_name DROP NOT NULL;

ALTER TABLE document_contents ADD COLUMN sealed bytea, ALTER COLUMN content DROP NOT NULL;

ALTER TABLE provider_documents ADD COLUMN sealed bytea, ALTER COLUMN file_name DROP NOT NULL;

ALTER TABLE purchases ADD COLUMN sealed bytea;
`;
