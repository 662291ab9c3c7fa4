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
import { activityIdempotencyKey } from './activityCall';
import type { ProviderClient } from './providerClient';
import { readAfterEvent } from './readAfterEvent';
import { routes } from './routes';

export interface ConnectedAccountLinks {
  bank_account_endpoint: string;
  bank_account_balances_endpoint: string;
  bank_account_transactions_endpoint: string;
}

export interface ConnectedAccountData {
  account: BankAccount;
  balances: BankBalances;
  transactions: BankTransactions;
}

export function createBankingActivities(client: ProviderClient) {
  return {
    async createOpenBankingConnection(input: { caseId: string }): Promise<OpenBankingConnectionRequest> {
      return client.call({ route: routes.createOpenBankingConnection, params: { caseId: input.caseId }, body: {}, schema: openBankingConnectionRequestSchema, idempotencyKey: activityIdempotencyKey() });
    },

    /** Reads one connected account's details, balances and transactions (each link guarded). */
    async readConnectedAccount(links: ConnectedAccountLinks): Promise<ConnectedAccountData> {
      const [account, balances, transactions] = await readAfterEvent(() =>
        Promise.all([
          client.follow({ link: links.bank_account_endpoint, schema: bankAccountSchema }),
          client.follow({ link: links.bank_account_balances_endpoint, schema: bankBalancesSchema }),
          client.follow({ link: links.bank_account_transactions_endpoint, schema: bankTransactionsSchema }),
        ]),
      );
      return { account, balances, transactions };
    },
  };
}
