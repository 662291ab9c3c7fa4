/**
 * Banking for a case (spec §1, §6.5, §6.6): request an open banking connection, or accept bank
 * statements; wait for the case's banking events (OpenBanking Connected/Rejected, Banking
 * Complete/Rejected, BankStatement Complete/Failed); then read every connected account's details,
 * balances and transactions through the payload links. The parent and child deliveries of one
 * occurrence share a batch id: the first decides, the others add nothing.
 */
import type { Duration } from '@temporalio/common';
import { condition } from '@temporalio/workflow';
import {
  bankStatementProcessingCompletedSchema,
  bankingProcessingCompletedSchema,
  openBankingProcessingCompletedSchema,
} from '../provider';
import type { ConnectedAccountData, ConnectedAccountLinks } from '../activities/bankingActivities';
import { defaultDeadlines } from './deadlines';
import type { ResourceDelivery } from './messages';
import { provider } from './providerActivities';
import { createResourceInbox } from './resourceInbox';
import { trackStep, type StepStatus } from './stepStatus';

export interface BankingInput {
  caseId: string;
  /** `open_banking` asks the applicant to connect; `bank_statements` waits for uploaded statements. */
  method: 'open_banking' | 'bank_statements';
  deadline?: Duration;
  stepKey?: string;
}

export interface BankingDetail {
  accounts: { account_connection_id: string; bank_name: string; balances: number; transactions: number }[];
  connectionLink: string | null;
}

export type BankingStatus = StepStatus<BankingDetail>;

type Outcome = { ok: true; accounts: ConnectedAccountLinks[]; bankConnectionId: string | null } | { ok: false; reason: string };

/** What a banking-related delivery says, if it settles the step. */
function outcomeOf(delivery: ResourceDelivery): Outcome | undefined {
  switch (delivery.eventType) {
    case 'OpenBankingProcessing.Completed': {
      const d = openBankingProcessingCompletedSchema.safeParse(delivery.data);
      if (!d.success) return undefined;
      return d.data.status === 'Connected'
        ? { ok: true, accounts: d.data.connected_accounts, bankConnectionId: d.data.bank_connection_id }
        : { ok: false, reason: 'the applicant rejected the open banking connection' };
    }
    case 'BankingProcessing.Completed': {
      const d = bankingProcessingCompletedSchema.safeParse(delivery.data);
      if (!d.success) return undefined;
      return d.data.status === 'Complete'
        ? { ok: true, accounts: d.data.connected_accounts, bankConnectionId: d.data.bank_connection_id }
        : { ok: false, reason: 'the provider rejected the banking connection' };
    }
    case 'BankStatementProcessing.Completed': {
      const d = bankStatementProcessingCompletedSchema.safeParse(delivery.data);
      if (!d.success) return undefined;
      return d.data.status === 'Complete'
        ? { ok: true, accounts: d.data.connected_accounts, bankConnectionId: d.data.bank_connection_id }
        : { ok: false, reason: `the bank statement ${d.data.document.file_name} failed: ${d.data.message ?? 'no reason given'}` };
    }
    default:
      return undefined;
  }
}

export async function bankingWorkflow(input: BankingInput): Promise<BankingStatus> {
  const detail: BankingDetail = { accounts: [], connectionLink: null };
  const { status, update, finish } = trackStep<BankingDetail>(input.stepKey);
  const resource = { kind: 'case-banking' as const, id: input.caseId.toLowerCase() };
  let outcome: Outcome | undefined;
  const inbox = createResourceInbox((_r, delivery) => {
    update({ lastEvent: { eventType: delivery.eventType, receivedAt: delivery.receivedAt } });
    outcome ??= outcomeOf(delivery);
  });

  if (input.method === 'open_banking') {
    const connection = await provider.createOpenBankingConnection({ caseId: input.caseId });
    detail.connectionLink = connection.connection_link;
    update({ providerIds: { bank_connection_id: connection.bank_connection_id }, detail });
  }
  await inbox.subscribe(resource);
  update({ state: 'waiting', reason: input.method === 'open_banking' ? 'waiting for the applicant to connect their bank' : 'waiting for bank statements to be processed' });

  const deadline = input.deadline ?? defaultDeadlines.banking;
  if (!(await condition(() => outcome !== undefined, deadline))) {
    return finish('expired', `no banking outcome within ${String(deadline)}`, detail);
  }
  const settled = outcome as Outcome;
  if (!settled.ok) return finish('needs_attention', settled.reason, detail);

  update({ state: 'running', reason: null, ...(settled.bankConnectionId ? { providerIds: { ...status.providerIds, bank_connection_id: settled.bankConnectionId } } : {}) });
  const read: ConnectedAccountData[] = [];
  for (const links of settled.accounts) read.push(await provider.readConnectedAccount(links));
  detail.accounts = read.map((a) => ({
    account_connection_id: a.account.account_connection_id,
    bank_name: a.account.bank_name,
    balances: a.balances.balances.length,
    transactions: a.transactions.transactions.length,
  }));
  return finish('completed', null, detail);
}
