/** Credit reports (spec §4.2 rules 1–4, §4.3); the report is always associated with company_id. */
import express, { type Router } from 'express';
import { routes } from '../activities/routes';
import {
  creditReportRequestSchema,
  picklistResolutionSchema,
  TOO_MANY_RESULTS,
  type CreditReport,
  type CreditReportRequest,
} from '../provider';
import { sendError, sendValidationError } from './apiErrors';
import { idempotencyKeyOf, recordCreation } from './idempotency';
import type { Company, RegistryEntry, SimulatorStore } from './store';

function details(entry: RegistryEntry): NonNullable<CreditReport['report']> {
  const { address: _address, ...rest } = entry;
  return { ...rest, currency: 'GBP' };
}

function picklistEntry(entry: RegistryEntry) {
  const { provider_id, company_name, company_number, country_code, address } = entry;
  return { provider_id, company_name, company_number, country_code, address };
}

type Resolution = { entries: RegistryEntry[] } | { error: [number, string, string] };

/** Names compare as the registry would: case, surrounding and repeated spaces do not matter. */
const sameName = (a: string, b: string) =>
  a.trim().replace(/\s+/g, ' ').toLowerCase() === b.trim().replace(/\s+/g, ' ').toLowerCase();
const sameCountry = (a: string | null, b: string) => a?.toUpperCase() === b.toUpperCase();

interface Details {
  number: string | null;
  country: string | null;
  name: string | null;
}

/** Registry entries matching every detail that is known. */
function lookUp(store: SimulatorStore, details: Details): RegistryEntry[] {
  return store.registry.filter(
    (e) =>
      (details.number === null || e.company_number === details.number) &&
      (details.country === null || sameCountry(e.country_code, details.country)) &&
      (details.name === null || sameName(e.company_name, details.name)),
  );
}

/** Rule 1: only company_id: the entity's stored number and country, 422 when either is missing. */
function byStoredDetails(store: SimulatorStore, company: Company): Resolution {
  const { company_number: number, country_code: country } = company;
  if (!number || !country) {
    const missing = [!number && 'company_number', !country && 'country_code'].filter(Boolean).join(' and ');
    return {
      error: [422, 'unprocessable', `Company ${company.company_id} has no ${missing}; send them with the request`],
    };
  }
  return { entries: lookUp(store, { number, country, name: null }) };
}

/**
 * Rule 2: number, name and country sent together override the stored details, and all three
 * identify the company (the name too). Fewer of them (not a case the spec shows, assumption A38):
 * each sent field overrides its stored one; number and country identify the company as in rule 1
 * when both are known, else the sent name does, with whichever of number and country is known.
 * Rule 1's 422 is for a request with only company_id; this one is 422 only when nothing identifies.
 */
function bySentDetails(store: SimulatorStore, company: Company, request: CreditReportRequest): Resolution {
  const sent = {
    number: request.company_number || null,
    country: request.country_code || null,
    name: request.company_name || null,
  };
  if (sent.number && sent.country && sent.name) return { entries: lookUp(store, sent) };
  const number = sent.number ?? company.company_number;
  const country = sent.country ?? company.country_code;
  if (number && country) return { entries: lookUp(store, { number, country, name: null }) };
  if (sent.name) return { entries: lookUp(store, { number, country, name: sent.name }) };
  const missing = [!number && 'company_number', !country && 'country_code'].filter(Boolean).join(' and ');
  return {
    error: [
      422,
      'unprocessable',
      `Company ${company.company_id} has no ${missing} and none was sent; send them, or company_name`,
    ],
  };
}

/** Which registry entries a request designates, per rules 1–3. */
function resolve(store: SimulatorStore, request: CreditReportRequest): Resolution {
  const company = store.companies.get(request.company_id);
  if (!company) return { error: [404, 'not_found', `No company ${request.company_id}`] };
  if (request.provider_id) {
    const entry = store.registry.find((e) => e.provider_id === request.provider_id);
    return entry
      ? { entries: [entry] }
      : { error: [404, 'not_found', `No company ${request.provider_id} in the provider's system`] };
  }
  const sentAny = Boolean(request.company_number || request.country_code || request.company_name);
  return sentAny ? bySentDetails(store, company, request) : byStoredDetails(store, company);
}

export function createCreditReportApi(store: SimulatorStore): Router {
  const router = express.Router();

  router.post(routes.requestCreditReport.pattern, express.json({ limit: '64kb' }), (req, res) => {
    const body = creditReportRequestSchema.safeParse(req.body);
    if (!body.success) return sendValidationError(res, body.error);
    const resolution = resolve(store, body.data);
    if ('error' in resolution) return sendError(res, ...resolution.error);
    const { entries } = resolution;
    if (entries.length === 0) return sendError(res, 404, 'not_found', 'No company matches the given details');
    const report: CreditReport = {
      report_id: store.random.guid(),
      company_id: body.data.company_id,
      status: entries.length === 1 ? 'Complete' : TOO_MANY_RESULTS,
      picklist: entries.length === 1 ? null : entries.map(picklistEntry),
      report: entries.length === 1 ? details(entries[0] as RegistryEntry) : null,
    };
    store.creditReports.set(report.report_id, report);
    recordCreation(store, res, report.report_id);
    res.status(201).json(report);
  });

  router.post(routes.resolveCreditReportPicklist.pattern, express.json({ limit: '64kb' }), (req, res) => {
    const body = picklistResolutionSchema.safeParse(req.body);
    if (!body.success) return sendValidationError(res, body.error);
    const report = store.creditReports.get(body.data.report_id);
    if (!report) return sendError(res, 404, 'not_found', `No credit report ${body.data.report_id}`);
    if (report.status !== TOO_MANY_RESULTS)
      return sendError(res, 409, 'conflict', 'The report has no picklist to resolve');
    const chosen = report.picklist?.find((p) => p.provider_id === body.data.provider_id);
    if (!chosen)
      return sendError(res, 422, 'unprocessable', `${body.data.provider_id} is not on the report's picklist`);
    const entry = store.registry.find((e) => e.provider_id === chosen.provider_id) as RegistryEntry;
    Object.assign(report, { status: 'Complete', picklist: null, report: details(entry) });
    store.picklistResolutions.push({
      report_id: report.report_id,
      provider_id: entry.provider_id,
      idempotency_key: idempotencyKeyOf(res),
      resolved_at: new Date().toISOString(),
    });
    res.json(report);
  });

  router.get(routes.creditReport.pattern, (req, res) => {
    const report = store.creditReports.get(req.params.reportId as string);
    if (!report) return sendError(res, 404, 'not_found', `No credit report ${req.params.reportId}`);
    res.json(report);
  });

  return router;
}
