/**
 * A creating call and the subscription to the resource it created, in one activity: the step learns
 * the new id and is subscribed to its resource workflow in one workflow task instead of two
 * (each activity costs its workflow three history events and a workflow task of three more).
 *
 * Still once per purchase: the creating call inside sends the purchase's idempotency key, so a
 * retry after a lost answer or a failed subscription gets the resource its first try created,
 * and subscribing twice is harmless (the resource workflow keeps a subscriber once).
 */
import type { IdentityVerificationRequest, ResourceKey } from '../provider';
import type { Subscription } from '../client/resourceMessages';
import type { createBankingActivities } from './bankingActivities';
import type { createDocumentActivities, DocumentUploadInput } from './documentActivities';
import type { IdentityVerificationActivities } from './identityVerificationActivities';
import type { createInsightActivities } from './insightActivities';
import { subscribeToResourceWorkflow, type ResourceTarget } from './signalResource';

export interface Subscribed {
  /** Who receives the resource's events, and when to ask the provider. */
  subscription: Subscription;
}

/** The purchase's key for the creating call (client/purchaseKey.ts), when the workflow gives one. */
interface Keyed {
  idempotencyKey?: string;
}

export interface OpenIdentityVerificationInput extends Subscribed, Keyed {
  personId: string;
  /** Take a Pending request of the person instead of creating one (false: the operator asked for a fresh one). */
  adoptOpenRequest: boolean;
  /** Requests the journey already sent this person (earlier attempts). */
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

export function createSubscribingActivities(creators: Creators, target: ResourceTarget) {
  const { identityVerification, banking, documents, insights } = creators;
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
   * Find before create. A request the journey sent this person that the applicant completed since
   * is taken as it stands; else, with `adoptOpenRequest`, the one still Pending (one the journey
   * sent first); else a new one under the purchase's key. Requests the journey sent that are still
   * Pending beside a new one are named in `also_pending` and subscribed to as well: the applicant
   * may still use any link they were sent.
   */
  const openIdentityVerification = async (
    input: OpenIdentityVerificationInput,
  ): Promise<OpenedIdentityVerification> => {
    const known = new Set(input.knownRequests ?? []);
    const listed =
      input.adoptOpenRequest || known.size > 0
        ? await identityVerification.listIdentityVerificationRequests({ personId: input.personId })
        : [];
    const ours = listed.filter((r) => known.has(r.request_id));
    const completed = ours.find((r) => r.status === 'Completed');
    if (completed) return completed;
    const pending = [...ours, ...listed].filter((r) => r.status === 'Pending');
    if (input.adoptOpenRequest && pending[0]) return pending[0];
    const created = await identityVerification.createIdentityVerificationRequest({
      personId: input.personId,
      idempotencyKey: input.idempotencyKey,
    });
    const alsoPending = ours
      .filter((r) => r.status === 'Pending' && r.request_id !== created.request_id)
      .map((r) => r.request_id);
    for (const id of alsoPending) await subscribeToResourceWorkflow(target, { kind: 'idv', id }, input.subscription);
    return alsoPending.length > 0 ? { ...created, also_pending: alsoPending } : created;
  };
  return {
    openIdentityVerificationRequest: (input: OpenIdentityVerificationInput) =>
      subscribed('openIdentityVerificationRequest', input, () => openIdentityVerification(input)),
    createOpenBankingConnectionAndSubscribe: (input: Subscribed & Keyed & { caseId: string }) =>
      subscribed('createOpenBankingConnectionAndSubscribe', input, () =>
        banking.createOpenBankingConnection({ caseId: input.caseId, idempotencyKey: input.idempotencyKey }),
      ),
    uploadDocumentAndSubscribe: (input: Subscribed & Keyed & { document: DocumentUploadInput }) =>
      subscribed('uploadDocumentAndSubscribe', input, () =>
        documents.uploadDocument(input.document, input.idempotencyKey),
      ),
    requestAffordabilityInsightAndSubscribe: (input: Subscribed & Keyed & { caseId: string }) =>
      subscribed('requestAffordabilityInsightAndSubscribe', input, () =>
        insights.requestAffordabilityInsight({ caseId: input.caseId, idempotencyKey: input.idempotencyKey }),
      ),
    requestIncomeEmployerVerificationAndSubscribe: (input: Subscribed & Keyed & { caseId: string }) =>
      subscribed('requestIncomeEmployerVerificationAndSubscribe', input, () =>
        insights.requestIncomeEmployerVerification({ caseId: input.caseId, idempotencyKey: input.idempotencyKey }),
      ),
  };
}
