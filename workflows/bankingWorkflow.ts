/**
 * Banking for a case (spec §1, §6.5, §6.6): request an open banking connection, or accept bank
 * statements; wait for the case's banking events (OpenBanking Connected/Rejected, Banking
 * Complete/Rejected, BankStatement Complete/Failed); then read every connected account's details,
 * balances and transactions through the payload links, into the case file (the step keeps
 * summaries). The parent and child deliveries of one occurrence share a batch id: the first
 * decides, the others add nothing.
 */
import type { Duration } from '@temporalio/common';
import { condition } from '@temporalio/workflow';
import { documentStatusOf } from '../provider/documentStatusWords';
import type { SentEventData } from '../provider';
import type { ConnectedAccountLinks } from '../activities/bankingActivities';
import type { BankAccountSummary } from '../case-file/summaries';
import { defaultDeadlines } from '../client/deadlines';
import { sentData } from './deliveryData';
import type { ResourceDelivery } from '../client/resourceMessages';
import { providerActivities } from './providerActivities';
import { failingOnProviderError } from './providerFailure';
import { keyed } from './purchase';
import { trackStep } from './stepStatus';
import type { StepStatus } from '../client/stepMessages';
import { lastEventOf } from './lastEvent';

export interface BankingInput {
  caseId: string;
  /** `open_banking` asks the applicant to connect; `bank_statements` waits for uploaded statements. */
  method: 'open_banking' | 'bank_statements';
  deadline?: Duration;
  stepKey?: string;
  /** How long each provider call is retried before the step fails. */
  callBudget?: Duration;
  /** The need's key (purchase.ts). */
  purchase?: string;
  /** An operator asked for this need to buy anew (purchase.ts). */
  fresh?: boolean;
  /**
   * A new attempt's events are the ones received after it began (ISO 8601): the case's banking
   * log still holds the events that settled earlier attempts. Open banking needs no such bound:
   * an attempt is settled only by events of its connection, whenever they came.
   */
  ignoreEventsBefore?: string;
}

export interface BankingDetail {
  /** Per account what the case file holds: bank, masked number, balance, transaction count and dates, and where. */
  accounts: BankAccountSummary[];
  connectionLink: string | null;
}

export type BankingStatus = StepStatus<BankingDetail>;

type Outcome =
  { ok: true; accounts: ConnectedAccountLinks[]; bankConnectionId: string | null } | { ok: false; reason: string };

/**
 * Whether a delivery belongs to this attempt: its own connection's, whenever it came (an attempt
 * that continues the need has the connection an earlier attempt made, which the applicant may have
 * completed meanwhile), or (statements) one received in its own time.
 */
function belongsToAttempt(
  delivery: ResourceDelivery,
  connectionId: string | null,
  notBefore: string | undefined,
): boolean {
  if (!connectionId) return !notBefore || delivery.receivedAt >= notBefore;
  const data = delivery.data as { bank_connection_id?: unknown };
  return (
    typeof data.bank_connection_id === 'string' && data.bank_connection_id.toLowerCase() === connectionId.toLowerCase()
  );
}

/** What a banking-related delivery says, if it settles the step. */
function outcomeOf(delivery: ResourceDelivery): Outcome | undefined {
  const openBanking = sentData(delivery, 'OpenBankingProcessing.Completed');
  if (openBanking)
    return openBanking.status === 'Connected'
      ? connected(openBanking)
      : { ok: false, reason: 'the applicant rejected the open banking connection' };
  const banking = sentData(delivery, 'BankingProcessing.Completed');
  if (banking)
    return banking.status === 'Complete'
      ? connected(banking)
      : { ok: false, reason: 'the provider rejected the banking connection' };
  const statement = sentData(delivery, 'BankStatementProcessing.Completed');
  if (statement) {
    // Sent as the provider wrote it (`Success`, say): the schema's word rule, applied here too.
    return documentStatusOf(statement.status) === 'Complete'
      ? connected(statement)
      : {
          ok: false,
          reason:
            `the bank statement ${statement.document.file_name} failed: ` + `${statement.message ?? 'no reason given'}`,
        };
  }
  return undefined;
}

type ConnectionData = Pick<SentEventData['BankingProcessing.Completed'], 'bank_connection_id' | 'connected_accounts'>;

/**
 * The accounts to read. Each keeps the four fields of its schema and nothing else, as the
 * schema's parse did: the activity's input (in the history) holds no more than it did.
 */
function connected({ connected_accounts, bank_connection_id }: ConnectionData): Outcome {
  const accounts = connected_accounts.map(
    ({
      account_connection_id,
      bank_account_endpoint,
      bank_account_balances_endpoint,
      bank_account_transactions_endpoint,
    }) => ({
      account_connection_id,
      bank_account_endpoint,
      bank_account_balances_endpoint,
      bank_account_transactions_endpoint,
    }),
  );
  return { ok: true, accounts, bankConnectionId: bank_connection_id };
}

export async function bankingWorkflow(input: BankingInput): Promise<BankingStatus> {
  const detail: BankingDetail = { accounts: [], connectionLink: null };
  const tracker = trackStep<BankingDetail>(input.stepKey);
  const { status, update, finish, spend } = tracker;
  const provider = providerActivities(input.callBudget, tracker.providerAnswered);
  const resource = { kind: 'case-banking' as const, id: input.caseId.toLowerCase() };
  const attempt: { connectionId: string | null; outcome?: Outcome } = { connectionId: null };
  // Open banking subscribes while it creates the connection: the case's log (earlier attempts'
  // events included) may come back before the connection id does, and must wait for it.
  const awaitingConnection = () => input.method === 'open_banking' && attempt.connectionId === null;
  const consider = (delivery: ResourceDelivery) => {
    if (belongsToAttempt(delivery, attempt.connectionId, input.ignoreEventsBefore))
      attempt.outcome ??= outcomeOf(delivery);
  };
  const waitingFor =
    input.method === 'open_banking'
      ? 'waiting for the applicant to connect their bank'
      : 'waiting for bank statements to be processed';

  return failingOnProviderError(tracker, async (inboxes) => {
    const inbox = inboxes.create((_r, delivery) => {
      update({ lastEvent: lastEventOf(delivery) });
      if (!awaitingConnection()) consider(delivery);
    });
    if (input.method === 'open_banking') {
      const connection = await provider.createOpenBankingConnectionAndSubscribe({
        caseId: input.caseId,
        subscription: inbox.subscription(),
        ...keyed(input, 'connection'),
      });
      attempt.connectionId = connection.bank_connection_id;
      inbox.track(resource);
      detail.connectionLink = connection.connection_link;
      for (const earlier of inbox.of(resource)) consider(earlier);
      update({
        state: 'waiting',
        reason: waitingFor,
        providerIds: { bank_connection_id: connection.bank_connection_id },
        links: { bank_connection_link: connection.connection_link },
        detail,
      });
    } else {
      await inbox.subscribe(resource);
      update({ state: 'waiting', reason: waitingFor });
    }

    const deadline = input.deadline ?? defaultDeadlines.banking;
    if (!(await condition(() => attempt.outcome !== undefined, deadline))) {
      // The applicant did not connect in time: the next attempt sends a new connection link.
      spend();
      return finish('expired', `no banking outcome within ${String(deadline)}`, detail);
    }
    const settled = attempt.outcome as Outcome;
    if (!settled.ok) {
      spend();
      return finish('needs_attention', settled.reason, detail);
    }

    update({
      state: 'running',
      reason: null,
      ...(settled.bankConnectionId
        ? { providerIds: { ...status.providerIds, bank_connection_id: settled.bankConnectionId } }
        : {}),
    });
    // Each read writes the account to the case file and returns its summary.
    for (const links of settled.accounts)
      detail.accounts.push(await provider.readConnectedAccount({ ...links, caseId: input.caseId }));
    // The transactions' validity window runs from the last one's date, across the accounts.
    status.evidenceDate = lastBookingDate(detail.accounts);
    return finish('completed', null, detail);
  });
}

/** The latest transaction's date of any account (ISO 8601 dates compare as text), or null without any. */
function lastBookingDate(accounts: BankAccountSummary[]): string | null {
  const dates = accounts.map((a) => a.last_booking_date).filter((d): d is string => typeof d === 'string');
  return dates.length ? dates.reduce((latest, d) => (d > latest ? d : latest)) : null;
}
