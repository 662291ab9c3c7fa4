/**
 * The read activities return case file references and summaries now; the histories recorded
 * before (test/replay/histories v1–v3, and journeys still open) hold the full provider data as
 * those activities' results. A workflow replaying such a history gets the old shape back, so it
 * reads every result through these functions, which accept both and give the summary.
 */
import type { ConnectedAccountData } from '../activities/bankingActivities';
import { summariseBankAccount, type BankAccountSummary, type TransactionsSummary } from '../case-file/summaries';
import type { AffordabilityTransactions } from '../provider';

export function accountSummaryOf(read: BankAccountSummary | ConnectedAccountData): BankAccountSummary {
  if ('account' in read) return summariseBankAccount(read.account, read.balances, read.transactions.transactions, null);
  return read;
}

export function transactionCountOf(read: TransactionsSummary | AffordabilityTransactions): number {
  return typeof read.transactions === 'number' ? read.transactions : read.transactions.length;
}
