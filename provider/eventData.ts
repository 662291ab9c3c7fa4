/**
 * The `data` of every webhook event of spec §6.6, with the status values of §3.
 * Pure, but not for workflow code: the workflow bundle holds no zod
 * (test/unit/workflowBundleContents.test.ts). Workflows read the data the bridge validated with
 * them (workflows/deliveryData.ts) through the types below.
 */
import { z } from 'zod';
import { documentStatusOf } from './documentStatusWords';
import type { KnownEventType } from './eventCatalogue';

/** ISO 8601 datetimes; offsets tolerated because a rejected delivery is a lost delivery. */
export const isoDateTime = z.iso.datetime({ offset: true, local: true });
const guid = z.guid();
const link = z.string().min(1);

export const documentRefSchema = z.object({
  document_id: guid,
  document_endpoint: link,
  file_name: z.string(),
});

export const connectedAccountSchema = z.object({
  account_connection_id: guid,
  bank_account_endpoint: link,
  bank_account_balances_endpoint: link,
  bank_account_transactions_endpoint: link,
});

/** §6.6 rule 6: `Case` in some payloads, `case` in others; compare with `isCaseEntity`. */
export const entityTypeSchema = z.string().min(1);
export function isCaseEntity(entityType: string): boolean {
  return entityType.toLowerCase() === 'case';
}

/**
 * Document status: the word mapping rule of documentStatusWords.ts. Any other word is refused
 * (its delivery reaches its resource as `invalid-data`; its ids are read alone).
 */
export const documentStatusSchema = z.string().transform((word, ctx) => {
  const status = documentStatusOf(word);
  if (status === undefined) {
    ctx.addIssue({
      code: 'custom',
      message: 'unknown document status (expected Complete or Failed, or a word mapped to them)',
    });
    return z.NEVER;
  }
  return status;
});
export const bankingStatusSchema = z.enum(['Complete', 'Rejected']);
export const openBankingStatusSchema = z.enum(['Connected', 'Rejected']);
export const incomeEmployerStatusSchema = z.enum(['Complete', 'Failed']);
export const idvCompletedVerificationStatusSchema = z.enum(['Approved', 'Declined', 'ResubmissionRequested']);
export const idvVerificationStatusSchema = z.enum(['Approved', 'Declined', 'ResubmissionRequested', 'NotCompleted']);

export const bankStatementProcessingCompletedSchema = z.object({
  bank_connection_id: guid.nullable(),
  status: documentStatusSchema,
  message: z.string().nullable(),
  entity_type: entityTypeSchema,
  entity_id: guid,
  document: documentRefSchema,
  connected_accounts: z.array(connectedAccountSchema),
});

export const documentKindProcessingCompletedSchema = z.object({
  status: documentStatusSchema,
  message: z.string().nullable(),
  document: documentRefSchema,
});

export const documentProcessingCompletedSchema = z.object({
  status: documentStatusSchema,
  message: z.string().nullable(),
  document_type: z.string(),
  document: documentRefSchema,
});

export const openBankingProcessingCompletedSchema = z.object({
  bank_connection_id: guid.nullable(),
  status: openBankingStatusSchema,
  entity_type: entityTypeSchema,
  entity_id: guid,
  connected_accounts: z.array(connectedAccountSchema),
});

export const bankingProcessingCompletedSchema = z.object({
  bank_connection_id: guid.nullable(),
  status: bankingStatusSchema,
  entity_type: entityTypeSchema,
  entity_id: guid,
  connected_accounts: z.array(connectedAccountSchema),
});

export const identityRequestRefSchema = z.object({
  request_id: z.string().min(1),
  identity_request_endpoint: link,
  identity_result_endpoint: link,
});

export const personRefSchema = z.object({
  first_name: z.string(),
  last_name: z.string(),
  name: z.string(),
  person_id: z.string().min(1),
});

export const identityVerificationCompletedSchema = z.object({
  identity_request: identityRequestRefSchema,
  person: personRefSchema,
  status: z.literal('Completed'),
  date_completed: isoDateTime,
  verification_status: idvCompletedVerificationStatusSchema,
});

export const identityVerificationExpiredSchema = z.object({
  identity_request: identityRequestRefSchema,
  person: personRefSchema,
  status: z.literal('Expired'),
  verification_status: z.literal('NotCompleted'),
});

export const affordabilityInsightsCompletedSchema = z.object({
  request_id: guid,
  affordability_insight_endpoint: link,
  affordability_insight_transactions_endpoint: link,
});

export const incomeEmployerInsightsCompletedSchema = z.object({
  status: incomeEmployerStatusSchema,
  message: z.string().nullable(),
  entity_type: entityTypeSchema,
  entity_id: guid,
  datetime_requested: isoDateTime,
  datetime_completed: isoDateTime,
  income_and_employer_request: z.object({
    request_id: z.string().min(1),
    verification_endpoint: link,
  }),
});

/** One schema per known event type. */
export const eventDataSchemas = {
  'BankStatementProcessing.Completed': bankStatementProcessingCompletedSchema,
  'PayslipProcessing.Completed': documentKindProcessingCompletedSchema,
  'SA302Processing.Completed': documentKindProcessingCompletedSchema,
  'TaxOverviewProcessing.Completed': documentKindProcessingCompletedSchema,
  'DocumentProcessing.Completed': documentProcessingCompletedSchema,
  'OpenBankingProcessing.Completed': openBankingProcessingCompletedSchema,
  'BankingProcessing.Completed': bankingProcessingCompletedSchema,
  'IdentityVerification.Completed': identityVerificationCompletedSchema,
  'IdentityVerification.Expired': identityVerificationExpiredSchema,
  'AffordabilityInsights.Completed': affordabilityInsightsCompletedSchema,
  'IncomeEmployerInsights.Completed': incomeEmployerInsightsCompletedSchema,
} as const satisfies Record<KnownEventType, z.ZodType>;

export type EventDataSchemas = typeof eventDataSchemas;
export type EventData = { [K in keyof EventDataSchemas]: z.infer<EventDataSchemas[K]> };
/**
 * The data as sent: what the bridge forwards to resource workflows once it has validated it
 * (`parse: 'known'`). It differs from EventData where a schema transforms (document status words).
 */
export type SentEventData = { [K in keyof EventDataSchemas]: z.input<EventDataSchemas[K]> };
export type IdentityVerificationCompletedData = EventData['IdentityVerification.Completed'];
export type IdentityVerificationExpiredData = EventData['IdentityVerification.Expired'];
export type IdvVerificationStatus = z.infer<typeof idvVerificationStatusSchema>;
