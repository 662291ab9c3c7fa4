/**
 * The ledger (`GET /_control/ledger`): everything the simulator created through its API, with the
 * `Idempotency-Key` each was created with, for tests asserting "exactly one resource per case and
 * attempt". Seed data (people, companies, cases) is not in it.
 *
 * Filters: `case_id` narrows the case-owned lists (open banking connections, documents, insights),
 * `company_id` the credit reports and their picklist resolutions, `person_id` the IDV requests.
 * When any filter is given, a list that carries none of the given ids is empty.
 */
import { z } from 'zod';
import type { SimulatorStore } from './store';

export const ledgerQuerySchema = z.object({
  case_id: z.string().min(1).optional(),
  company_id: z.string().min(1).optional(),
  person_id: z.string().min(1).optional(),
});
export type LedgerQuery = z.infer<typeof ledgerQuerySchema>;

/** Keeps the entries whose `value` equals the filter; with other filters only, keeps none. */
function narrow<T>(entries: T[], query: LedgerQuery, field: keyof LedgerQuery, value: (entry: T) => string): T[] {
  const wanted = query[field];
  if (wanted !== undefined) return entries.filter((e) => value(e) === wanted);
  const anyFilter = Object.values(query).some((v) => v !== undefined);
  return anyFilter ? [] : entries;
}

export function ledger(store: SimulatorStore, query: LedgerQuery) {
  const keyOf = (id: string) => store.createdWithKey.get(id) ?? null;
  const companyOfReport = (reportId: string) => store.creditReports.get(reportId)?.company_id ?? '';
  const resolutionsOf = (reportId: string) => store.picklistResolutions.filter((r) => r.report_id === reportId).length;

  const creditReports = [...store.creditReports.values()].map((r) => {
    const resolutions = resolutionsOf(r.report_id);
    return {
      report_id: r.report_id,
      company_id: r.company_id,
      idempotency_key: keyOf(r.report_id),
      status: r.status,
      /** A resolved report's picklist is gone from its body; the resolutions remember it. */
      had_picklist: r.picklist !== null || resolutions > 0,
      picklist_resolved: resolutions > 0,
      /** Resolutions actually applied: a replayed or refused one does not count. */
      picklist_resolutions: resolutions,
    };
  });
  const picklistResolutions = store.picklistResolutions.map((p) => ({
    ...p,
    company_id: companyOfReport(p.report_id),
  }));
  const identityVerifications = [...store.identityVerifications.values()].map((r) => ({
    request_id: r.request_id,
    person_id: r.person_id,
    idempotency_key: keyOf(r.request_id),
    status: r.status,
  }));
  const openBankingConnections = [...store.openBankingConnections.values()].map((c) => ({
    bank_connection_id: c.bank_connection_id,
    case_id: c.entity_id,
    idempotency_key: keyOf(c.bank_connection_id),
    status: c.status,
  }));
  const documents = [...store.documents.values()].map((d) => ({
    document_id: d.document_id,
    case_id: d.entity_id,
    file_name: d.file_name,
    idempotency_key: keyOf(d.document_id),
    status: d.status,
  }));
  const insight = (i: { request_id: string; entity_id: string; status: string }) => ({
    request_id: i.request_id,
    case_id: i.entity_id,
    idempotency_key: keyOf(i.request_id),
    status: i.status,
  });

  return {
    creditReports: narrow(creditReports, query, 'company_id', (r) => r.company_id),
    picklistResolutions: narrow(picklistResolutions, query, 'company_id', (r) => r.company_id),
    identityVerifications: narrow(identityVerifications, query, 'person_id', (r) => r.person_id),
    openBankingConnections: narrow(openBankingConnections, query, 'case_id', (c) => c.case_id),
    documents: narrow(documents, query, 'case_id', (d) => d.case_id),
    affordabilityInsights: narrow([...store.affordability.values()].map(insight), query, 'case_id', (i) => i.case_id),
    incomeEmployerRequests: narrow([...store.incomeEmployer.values()].map(insight), query, 'case_id', (i) => i.case_id),
  };
}
