/**
 * The case file's API: what activities write, what the CLI and tests read. Opening it applies the
 * migrations; every call is one transaction (transaction.ts).
 */
import type { Pool } from 'pg';
import { z } from 'zod';
import { readPayloadKeys } from '../codec/payloadKeys';
import type {
  AffordabilityInsight,
  AffordabilityTransactions,
  BankAccount,
  BankBalances,
  BankTransactions,
  CreditReport,
  IdentityVerificationResult,
  IncomeEmployerResult,
  ProviderDocument,
} from '../provider';
import type { CaseFileAttempt } from './attempt';
import { appendAudit, readAudit, type AuditEntry, type AuditEntryInput } from './auditTrail';
import { assignCase, type AssignRequest, type Assignment } from './caseAssignment';
import { readCaseMarks, readQueueMark } from './caseChanges';
import { readDeskEvidence, type DeskEvidence } from './caseDeskEvidence';
import { recordCaseParties, type CaseParty } from './caseParties';
import { listCaseRecords, type CaseListQuery, type CasePage } from './caseQueue';
import { readCaseRecord, writeJourneyState, type CaseRecord, type JourneyStateWrite } from './caseReadModel';
import { readCaseTimeline, recordNotification, type SentNotification, type TimelineEntry } from './caseTimeline';
import { writeBankAccount } from './bankingRecords';
import {
  putDocument,
  readDocument,
  writeProviderDocument,
  type NewDocument,
  type StoredDocument,
} from './documentRecords';
import { countCaseFile, readEvidence, type CaseEvidence, type CaseFileCounts } from './evidence';
import { writeAffordabilityInsight, writeAffordabilityTransactions, writeIncomeEmployerResult } from './insightRecords';
import { payloadKeyCipher, type FieldCipher } from './fieldCipher';
import { migrate } from './migrate';
import { openPool } from './pool';
import { recordSightings, unclaimedSightings, type Sighting, type SightingQuery } from './providerSightings';
import {
  casePurchases,
  heldProviderIds,
  otherOpenIntents,
  readPurchase,
  recordBought,
  recordIntent,
  recordUnknown,
  renewIntent,
  type Intent,
  type Purchase,
  type PurchaseKind,
} from './purchaseLedger';
import { purgeCase } from './purge';
import { inTransaction } from './transaction';
import { writeCreditReport, writeIdentityVerificationResult } from './verificationRecords';

export const documentIdSchema = z.uuid({ error: 'a document id is a UUID' });

export class CaseFileStore {
  constructor(
    readonly pool: Pool,
    /** Seals the provider's data and the documents (fieldCipher.ts). */
    readonly cipher: FieldCipher = payloadKeyCipher(readPayloadKeys()),
  ) {}

  writeBankAccount(
    at: CaseFileAttempt,
    account: BankAccount,
    balances: BankBalances,
    transactions: BankTransactions,
  ): Promise<void> {
    return inTransaction(this.pool, (c) => writeBankAccount(c, this.cipher, at, account, balances, transactions));
  }

  writeAffordabilityInsight(at: CaseFileAttempt, insight: AffordabilityInsight): Promise<void> {
    return inTransaction(this.pool, (c) => writeAffordabilityInsight(c, this.cipher, at, insight));
  }

  writeAffordabilityTransactions(at: CaseFileAttempt, read: AffordabilityTransactions): Promise<void> {
    return inTransaction(this.pool, (c) => writeAffordabilityTransactions(c, this.cipher, at, read));
  }

  writeIncomeEmployerResult(at: CaseFileAttempt, result: IncomeEmployerResult): Promise<void> {
    return inTransaction(this.pool, (c) => writeIncomeEmployerResult(c, this.cipher, at, result));
  }

  writeCreditReport(at: CaseFileAttempt, report: CreditReport): Promise<void> {
    return inTransaction(this.pool, (c) => writeCreditReport(c, this.cipher, at, report));
  }

  writeIdentityVerificationResult(at: CaseFileAttempt, result: IdentityVerificationResult): Promise<void> {
    return inTransaction(this.pool, (c) => writeIdentityVerificationResult(c, this.cipher, at, result));
  }

  writeProviderDocument(at: CaseFileAttempt, documentId: string | null, doc: ProviderDocument): Promise<void> {
    return inTransaction(this.pool, (c) => writeProviderDocument(c, this.cipher, at, documentId, doc));
  }

  /** Stores a document's bytes once per case; the same bytes again return the stored document. */
  putDocument(doc: NewDocument): Promise<StoredDocument> {
    return inTransaction(this.pool, (c) => putDocument(c, this.cipher, doc));
  }

  /** The document with its bytes, or undefined when there is none with that id. */
  readDocument(documentId: string): Promise<(StoredDocument & { content: Buffer }) | undefined> {
    if (!documentIdSchema.safeParse(documentId).success) return Promise.resolve(undefined);
    return inTransaction(this.pool, (c) => readDocument(c, this.cipher, documentId));
  }

  evidence(caseId: string): Promise<CaseEvidence> {
    return inTransaction(this.pool, (c) => readEvidence(c, this.cipher, caseId));
  }

  /** The evidence as the console shows it: headlines, balances and money in and out by month (caseDeskEvidence.ts). */
  deskEvidence(caseId: string): Promise<DeskEvidence> {
    return inTransaction(this.pool, (c) => readDeskEvidence(c, this.cipher, caseId));
  }

  counts(caseId: string): Promise<CaseFileCounts> {
    return inTransaction(this.pool, (c) => countCaseFile(c, caseId));
  }

  /**
   * The journey's state, unless the stored one is as new or newer (caseReadModel.ts); answers
   * whether it was written.
   */
  writeJourneyState(write: JourneyStateWrite): Promise<boolean> {
    return inTransaction(this.pool, (c) => writeJourneyState(c, write));
  }

  caseRecord(caseId: string): Promise<CaseRecord | undefined> {
    return inTransaction(this.pool, (c) => readCaseRecord(c, caseId));
  }

  listCases(query: CaseListQuery): Promise<CasePage> {
    return inTransaction(this.pool, (c) => listCaseRecords(c, query));
  }

  /** Assigns (or, with a null assignee, releases) a case and audits it; undefined: no such case in the read model. */
  assignCase(request: AssignRequest): Promise<{ assignment: Assignment; audit: AuditEntry } | undefined> {
    return inTransaction(this.pool, (c) => assignCase(c, request));
  }

  /** Marks that change when a case's view changes (caseChanges.ts), for the cases the read model holds. */
  caseMarks(caseIds: readonly string[]): Promise<Map<string, string>> {
    return inTransaction(this.pool, (c) => readCaseMarks(c, caseIds));
  }

  queueMark(): Promise<string> {
    return inTransaction(this.pool, (c) => readQueueMark(c));
  }

  recordParties(caseId: string, parties: readonly CaseParty[]): Promise<void> {
    return inTransaction(this.pool, (c) => recordCaseParties(c, caseId, parties));
  }

  appendAudit(entry: AuditEntryInput): Promise<AuditEntry> {
    return inTransaction(this.pool, (c) => appendAudit(c, entry));
  }

  audit(caseId: string): Promise<AuditEntry[]> {
    return inTransaction(this.pool, (c) => readAudit(c, caseId));
  }

  recordNotification(notification: SentNotification): Promise<void> {
    return inTransaction(this.pool, (c) => recordNotification(c, notification));
  }

  timeline(caseId: string): Promise<TimelineEntry[]> {
    return inTransaction(this.pool, (c) => readCaseTimeline(c, caseId));
  }

  /** The purchase ledger (purchaseLedger.ts): the row of one creating call. */
  purchase(callKey: string): Promise<Purchase | undefined> {
    return inTransaction(this.pool, (c) => readPurchase(c, this.cipher, callKey));
  }

  /** Records the intent of a creating call unless its key has a row; answers the row as it stands. */
  recordPurchaseIntent(intent: Intent): Promise<{ purchase: Purchase; recorded: boolean }> {
    return inTransaction(this.pool, (c) => recordIntent(c, this.cipher, intent));
  }

  recordPurchaseBought(callKey: string, providerId: string, answer: unknown): Promise<Purchase> {
    return inTransaction(this.pool, (c) => recordBought(c, this.cipher, callKey, providerId, answer));
  }

  recordPurchaseUnknown(callKey: string, evidence: string): Promise<void> {
    return inTransaction(this.pool, (c) => recordUnknown(c, callKey, evidence));
  }

  /** The intent starts again from now; `forget`: the call was refused, the row goes (purchaseLedger.ts). */
  renewPurchaseIntent(callKey: string, options: { forget?: boolean } = {}): Promise<boolean> {
    return inTransaction(this.pool, (c) => renewIntent(c, callKey, options.forget === true));
  }

  heldProviderIds(kind: PurchaseKind, ids: string[]): Promise<Set<string>> {
    return inTransaction(this.pool, (c) => heldProviderIds(c, kind, ids));
  }

  otherOpenIntents(purchase: Purchase): Promise<string[]> {
    return inTransaction(this.pool, (c) => otherOpenIntents(c, purchase));
  }

  purchases(caseId: string): Promise<Purchase[]> {
    return inTransaction(this.pool, (c) => casePurchases(c, this.cipher, caseId));
  }

  recordSightings(sightings: Sighting[]): Promise<void> {
    return inTransaction(this.pool, (c) => recordSightings(c, sightings));
  }

  unclaimedSightings(query: SightingQuery): Promise<string[]> {
    return inTransaction(this.pool, (c) => unclaimedSightings(c, query));
  }

  purge(caseId: string): Promise<Record<string, number>> {
    return inTransaction(this.pool, (c) => purgeCase(c, caseId));
  }

  close(): Promise<void> {
    return this.pool.end();
  }
}

/**
 * Connects, applies the migrations the database lacks, and returns the store. `cipher` seals what
 * the case file holds of the provider's data and the documents (fieldCipher.ts); unset, the
 * payload keys of the environment or the embedded key file (`readPayloadKeys()`).
 */
export async function openCaseFile(
  url: string,
  poolSize: number,
  cipher: FieldCipher = payloadKeyCipher(readPayloadKeys()),
): Promise<CaseFileStore> {
  const pool = openPool(url, poolSize);
  try {
    await migrate(pool);
  } catch (error) {
    await pool.end();
    throw error;
  }
  return new CaseFileStore(pool, cipher);
}
