/**
 * A creating call and the subscription to the resource it created, in one activity: the step learns
 * the new id and is subscribed to its resource workflow in one workflow task instead of two
 * (each activity costs its workflow three history events and a workflow task of three more).
 *
 * Still once per purchase: the creating call goes through the purchase ledger
 * (purchaseGuard.ts), so a retry after a lost answer or a failed subscription gets the resource
 * its first try created, found by the means the spec gives when the answer was lost, and
 * subscribing twice is harmless (the resource workflow keeps a subscriber once).
 */
import type { IdentityVerificationRequest, ResourceKey } from '../provider';
import type { Subscription } from '../client/resourceMessages';
import type { createBankingActivities } from './bankingActivities';
import type { createDocumentActivities, DocumentUploadInput } from './documentActivities';
import type { IdentityVerificationActivities } from './identityVerificationActivities';
import type { createInsightActivities } from './insightActivities';
import type { CaseFileStore } from '../case-file/store';
import { acceptedInsight, createPurchaseFinders, foundConnection, mapFound } from './purchaseFinders';
import { callInFlightMs, createPurchaseGuard } from './purchaseGuard';
import { subscribeToResourceWorkflow, type ResourceTarget } from './signalResource';

export interface Subscribed {
  /** Who receives the resource's events, and when to ask the provider. */
  subscription: Subscription;
}

/** The purchase's key for the creating call (client/purchaseKey.ts), when the workflow gives one. */
interface Keyed {
  idempotencyKey?: string;
  /** An operator asked for this need to buy anew (recorded in the ledger). */
  fresh?: boolean;
}

export interface OpenIdentityVerificationInput extends Subscribed, Keyed {
  personId: string;
  /**
   * Take a Pending request the journey sent this person (`knownRequests`) instead of creating one
   * (false: the operator asked for a fresh one). Never another case's.
   */
  adoptOpenRequest: boolean;
  /** Requests the journey already sent this person (earlier attempts): the case's own. */
  knownRequests?: string[];
}

/**
 * The request the step waits on; `also_pending`: other links the journey sent that the applicant
 * may still complete.
 */
export type OpenedIdentityVerification = IdentityVerificationRequest & { also_pending?: string[] };

interface Creators {
  identityVerification: IdentityVerificationActivities;
  banking: ReturnType<typeof createBankingActivities>;
  documents: ReturnType<typeof createDocumentActivities>;
  insights: ReturnType<typeof createInsightActivities>;
}

type Created = { request_id?: string; document_id?: string };

/** The resource each of these activities subscribes to, from its input and result. */
const subscribedResource = {
  openIdentityVerificationRequest: (_input: unknown, result: Created): ResourceKey => ({
    kind: 'idv',
    id: String(result.request_id),
  }),
  // The case's banking events all reach `case-banking/<case id>`, whichever connection they are for.
  createOpenBankingConnectionAndSubscribe: (input: { caseId: string }): ResourceKey => ({
    kind: 'case-banking',
    id: input.caseId.toLowerCase(),
  }),
  uploadDocumentAndSubscribe: (_input: unknown, result: Created): ResourceKey => ({
    kind: 'document',
    id: String(result.document_id).toLowerCase(),
  }),
  requestAffordabilityInsightAndSubscribe: (_input: unknown, result: Created): ResourceKey => ({
    kind: 'affordability',
    id: String(result.request_id),
  }),
  requestIncomeEmployerVerificationAndSubscribe: (_input: unknown, result: Created): ResourceKey => ({
    kind: 'income-employer',
    id: String(result.request_id),
  }),
};

export function createSubscribingActivities(
  creators: Creators,
  target: ResourceTarget,
  caseFile: CaseFileStore,
  inFlightMs = callInFlightMs(),
) {
  const { identityVerification, banking, documents, insights } = creators;
  const guarded = createPurchaseGuard(caseFile, { inFlightMs });
  const finders = createPurchaseFinders(caseFile);
  const subscribed = async <Input extends Subscribed, Result extends object>(
    activityType: keyof typeof subscribedResource,
    input: Input,
    create: () => Promise<Result>,
  ): Promise<Result> => {
    const created = await create();
    await subscribeToResourceWorkflow(
      target,
      subscribedResource[activityType](input as never, created as Created),
      input.subscription,
    );
    return created;
  };
  /**
   * Find before create, among the case's own requests only. A request the journey sent this person
   * that the applicant completed since is taken as it stands; else, with `adoptOpenRequest`, one
   * still Pending; else a new one, through the ledger. The person's other requests (another case's,
   * for the same person) are never taken. Requests the journey sent that are still Pending beside a
   * new one are named in `also_pending` and subscribed to as well: the applicant may still use any
   * link they were sent.
   */
  const openIdentityVerification = async (
    input: OpenIdentityVerificationInput,
  ): Promise<OpenedIdentityVerification> => {
    const known = new Set(input.knownRequests ?? []);
    const list = () => identityVerification.listIdentityVerificationRequests({ personId: input.personId });
    const ours = known.size > 0 ? (await list()).filter((r) => known.has(r.request_id)) : [];
    const completed = ours.find((r) => r.status === 'Completed');
    if (completed) return completed;
    const pending = ours.filter((r) => r.status === 'Pending');
    if (input.adoptOpenRequest && pending[0]) return pending[0];
    const created = await guarded({
      callKey: input.idempotencyKey,
      kind: 'idv',
      subject: input.personId,
      fresh: input.fresh,
      providerIdOf: (r) => r.request_id,
      create: () =>
        identityVerification.createIdentityVerificationRequest({
          personId: input.personId,
          idempotencyKey: input.idempotencyKey,
        }),
      find: (intent) => finders.identityVerification(intent, list),
    });
    const alsoPending = pending.map((r) => r.request_id).filter((id) => id !== created.request_id);
    for (const id of alsoPending) await subscribeToResourceWorkflow(target, { kind: 'idv', id }, input.subscription);
    return alsoPending.length > 0 ? { ...created, also_pending: alsoPending } : created;
  };
  const insight = (
    kind: 'affordability' | 'income-employer',
    input: Keyed & { caseId: string },
    create: () => ReturnType<typeof insights.requestAffordabilityInsight>,
  ) =>
    guarded({
      callKey: input.idempotencyKey,
      kind,
      subject: input.caseId,
      fresh: input.fresh,
      providerIdOf: (r) => r.request_id,
      create,
      find: async (intent) => mapFound(await finders.sighted(intent, kind), acceptedInsight),
    });
  return {
    openIdentityVerificationRequest: (input: OpenIdentityVerificationInput) =>
      subscribed('openIdentityVerificationRequest', input, () => openIdentityVerification(input)),
    createOpenBankingConnectionAndSubscribe: (input: Subscribed & Keyed & { caseId: string }) =>
      subscribed('createOpenBankingConnectionAndSubscribe', input, () =>
        guarded({
          callKey: input.idempotencyKey,
          kind: 'open-banking',
          subject: input.caseId,
          fresh: input.fresh,
          providerIdOf: (c) => c.bank_connection_id,
          create: () =>
            banking.createOpenBankingConnection({ caseId: input.caseId, idempotencyKey: input.idempotencyKey }),
          find: async (intent) =>
            mapFound(await finders.sighted(intent, 'open-banking'), (id) => foundConnection(input.caseId, id)),
        }),
      ),
    uploadDocumentAndSubscribe: (input: Subscribed & Keyed & { document: DocumentUploadInput }) =>
      subscribed('uploadDocumentAndSubscribe', input, () =>
        guarded({
          callKey: input.idempotencyKey,
          kind: 'document',
          subject: input.document.file_name,
          fresh: input.fresh,
          providerIdOf: (d) => d.document_id.toLowerCase(),
          create: () => documents.uploadDocument(input.document, input.idempotencyKey),
          find: async (intent) =>
            mapFound(await finders.sighted(intent, 'document', input.document.file_name), (id) =>
              documents.readUploadedDocument(input.document, id),
            ),
        }),
      ),
    requestAffordabilityInsightAndSubscribe: (input: Subscribed & Keyed & { caseId: string }) =>
      subscribed('requestAffordabilityInsightAndSubscribe', input, () =>
        insight('affordability', input, () =>
          insights.requestAffordabilityInsight({ caseId: input.caseId, idempotencyKey: input.idempotencyKey }),
        ),
      ),
    requestIncomeEmployerVerificationAndSubscribe: (input: Subscribed & Keyed & { caseId: string }) =>
      subscribed('requestIncomeEmployerVerificationAndSubscribe', input, () =>
        insight('income-employer', input, () =>
          insights.requestIncomeEmployerVerification({ caseId: input.caseId, idempotencyKey: input.idempotencyKey }),
        ),
      ),
  };
}
