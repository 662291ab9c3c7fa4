/** Affordability and income-and-employer insights (spec §1, §4.7): bodies and requests assumed. */
import { z } from 'zod';
import { incomeEmployerStatusSchema } from './eventData';
import { transactionSchema } from './banking';

export const insightRequestAcceptedSchema = z.object({
  request_id: z.string().min(1),
  status: z.literal('Pending'),
});
export type InsightRequestAccepted = z.infer<typeof insightRequestAcceptedSchema>;

export const affordabilityInsightSchema = z.object({
  request_id: z.guid(),
  entity_type: z.string(),
  entity_id: z.string(),
  status: z.enum(['Pending', 'Complete']),
  currency: z.string(),
  monthly_income: z.number().nullable(),
  monthly_expenditure: z.number().nullable(),
  monthly_disposable_income: z.number().nullable(),
});
export type AffordabilityInsight = z.infer<typeof affordabilityInsightSchema>;

export const affordabilityTransactionsSchema = z.object({
  request_id: z.guid(),
  transactions: z.array(transactionSchema),
});
export type AffordabilityTransactions = z.infer<typeof affordabilityTransactionsSchema>;

/** §6.6 rule 5: present even on failure, with the failure's detail. */
export const incomeEmployerResultSchema = z.object({
  request_id: z.string(),
  entity_type: z.string(),
  entity_id: z.string(),
  status: z.union([z.literal('Pending'), incomeEmployerStatusSchema]),
  message: z.string().nullable(),
  employer_name: z.string().nullable(),
  annual_income: z.number().nullable(),
  currency: z.string(),
  failure_detail: z.string().nullable(),
});
export type IncomeEmployerResult = z.infer<typeof incomeEmployerResultSchema>;
