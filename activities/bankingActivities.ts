/** Banking (spec §4.7; the connection request assumed): accounts are read through payload links. */
import {
  bankAccountSchema,
  bankBalancesSchema,
  bankTransactionsSchema,
  openBankingConnectionRequestSchema,
  type BankAccount,
  type BankBalances,
  type BankTransactions,
  type OpenBankingConnectionRequest,
} from '../provider';
import type { CaseFileStore } from '../case-file/store';
import { summariseBankAccount, type BankAccountSummary } from '../case-file/summaries';
import { idempotencyKeyFor } from './activityCall';
import { caseFileAttempt, caseFileRef } from './caseFileAttempt';
import type { ProviderClient } from './providerClient';
import { readAfterEvent } from './readAfterEvent';
import { routes } from './routes';

export interface ConnectedAccountLinks {
  bank_account_endpoint: string;
  bank_account_balances_endpoint: string;
  bank_account_transactions_endpoint: string;
}

/**
 * An account read in full: the result older histories hold for the account reads, which answer a
 * `BankAccountSummary`.
 */
export interface ConnectedAccountData {
  account: BankAccount;
  balances: BankBalances;
  transactions: BankTransactions;
}

export type ReadConnectedAccountInput = ConnectedAccountLinks & { caseId?: string };

export function createBankingActivities(client: ProviderClient, caseFile: CaseFileStore) {
  return {
    async createOpenBankingConnection(input: {
      caseId: string;
      idempotencyKey?: string;
    }): Promise<OpenBankingConnectionRequest> {
      return client.call({
        route: routes.createOpenBankingConnection,
        params: { caseId: input.caseId },
        body: {},
        schema: openBankingConnectionRequestSchema,
        idempotencyKey: idempotencyKeyFor(input.idempotencyKey),
      });
    },

    /**
     * Reads one connected account's details, balances and transactions (each link guarded), writes
     * them to the case file, and returns a summary: the history never holds the transactions.
     */
    async readConnectedAccount(links: ReadConnectedAccountInput): Promise<BankAccountSummary> {
      const [account, balances, transactions] = await readAfterEvent(() =>
        Promise.all([
          client.follow({ link: links.bank_account_endpoint, schema: bankAccountSchema }),
          client.follow({ link: links.bank_account_balances_endpoint, schema: bankBalancesSchema }),
          client.follow({ link: links.bank_account_transactions_endpoint, schema: bankTransactionsSchema }),
        ]),
      );
      const at = caseFileAttempt(links.caseId);
      await caseFile.writeBankAccount(at, account, balances, transactions);
      return summariseBankAccount(
        account,
        balances,
        transactions.transactions,
        caseFileRef(at, 'bank_account', account.account_connection_id),
      );
    },
  };
}
