/**
 * Credit reports (spec §2.3, §4.2, §4.3). The request body is the spec's; the response beyond its
 * `status` and the picklist shapes are assumptions (docs/provider-assumptions.md).
 */
import { z } from 'zod';

export { TOO_MANY_RESULTS } from './creditReportConstants';

export const countryCodeSchema = z
  .string()
  .regex(/^[A-Za-z]{2}$/, 'country_code must be a two-letter ISO country code');

export const creditReportRequestSchema = z.object({
  company_id: z.string({ error: 'company_id is required' }).min(1, 'company_id must be at least 1 character'),
  company_number: z.string().nullable().optional(),
  company_name: z.string().nullable().optional(),
  country_code: countryCodeSchema.nullable().optional(),
  provider_id: z.string().nullable().optional(),
});
export type CreditReportRequest = z.infer<typeof creditReportRequestSchema>;

export const creditReportStatusSchema = z.string().min(1, 'status must not be empty');

export const picklistEntrySchema = z.object({
  provider_id: z.string().min(1),
  company_name: z.string(),
  company_number: z.string().nullable(),
  country_code: z.string().nullable(),
  address: z.string().nullable(),
});
export type PicklistEntry = z.infer<typeof picklistEntrySchema>;

export const creditReportDetailsSchema = z.object({
  provider_id: z.string(),
  company_name: z.string(),
  company_number: z.string().nullable(),
  country_code: z.string().nullable(),
  credit_score: z.number(),
  credit_limit: z.number(),
  currency: z.string(),
});

export const creditReportSchema = z.object({
  report_id: z.string().min(1),
  company_id: z.string().min(1),
  status: creditReportStatusSchema,
  /** Present when `status` is TooManyResults. */
  picklist: z.array(picklistEntrySchema).nullable(),
  /** Present when the report was resolved to one company. */
  report: creditReportDetailsSchema.nullable(),
});
export type CreditReport = z.infer<typeof creditReportSchema>;

/** §4.3 body (assumed): the report to resolve and the chosen entry of its picklist. */
export const picklistResolutionSchema = z.object({
  report_id: z.string().min(1, 'report_id is required'),
  provider_id: z.string().min(1, 'provider_id is required'),
});
export type PicklistResolution = z.infer<typeof picklistResolutionSchema>;
