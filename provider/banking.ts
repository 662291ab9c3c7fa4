/** Banking (spec §1, §4.7): response bodies and the connection request are assumptions. */
import { z } from 'zod';

export const openBankingConnectionRequestSchema = z.object({
  bank_connection_id: z.guid(),
  entity_type: z.string(),
  entity_id: z.string(),
  status: z.enum(['Pending', 'Connected', 'Rejected']),
  /** The link the applicant opens to connect their bank. */
  connection_link: z.string().min(1),
});
export type OpenBankingConnectionRequest = z.infer<typeof openBankingConnectionRequestSchema>;

export const bankAccountSchema = z.object({
  account_connection_id: z.guid(),
  bank_name: z.string(),
  account_name: z.string(),
  sort_code: z.string().nullable(),
  account_number_masked: z.string().nullable(),
  currency: z.string(),
});
export type BankAccount = z.infer<typeof bankAccountSchema>;

export const bankBalancesSchema = z.object({
  account_connection_id: z.guid(),
  balances: z.array(z.object({ type: z.string(), amount: z.number(), currency: z.string(), as_of: z.string() })),
});
export type BankBalances = z.infer<typeof bankBalancesSchema>;

export const transactionSchema = z.object({
  transaction_id: z.string(),
  booking_date: z.string(),
  amount: z.number(),
  currency: z.string(),
  description: z.string(),
  category: z.string().nullable(),
});

export const bankTransactionsSchema = z.object({
  account_connection_id: z.guid(),
  transactions: z.array(transactionSchema),
});
export type BankTransactions = z.infer<typeof bankTransactionsSchema>;
