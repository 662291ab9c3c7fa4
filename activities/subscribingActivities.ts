/**
 * A creating call and the subscription to the resource it created, in one activity: the step learns
 * the new id and is subscribed to its resource workflow in one workflow task instead of two (issue
 * 13: each activity costs its workflow three history events and a workflow task of three more).
 *
 * Still once per attempt: the creating call inside sends the idempotency key of this activity, so a
 * retry after a lost answer or a failed subscription gets the resource its first attempt created,
 * and subscribing twice is harmless (the resource workflow keeps a subscriber once).
 */
import type { ResourceKey } from '../provider';
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

interface Creators {
  identityVerification: IdentityVerificationActivities;
  banking: ReturnType<typeof createBankingActivities>;
  documents: ReturnType<typeof createDocumentActivities>;
  insights: ReturnType<typeof createInsightActivities>;
}

type Created = { request_id?: string; document_id?: string };

/** The resource each of these activities subscribes to, from its input and result. */
const subscribedResource = {
  openIdentityVerificationRequest: (_input: unknown, result: Created): ResourceKey => ({ kind: 'idv', id: String(result.request_id) }),
  // The case's banking events all reach `case-banking/<case id>`, whichever connection they are for.
  createOpenBankingConnectionAndSubscribe: (input: { caseId: string }): ResourceKey => ({ kind: 'case-banking', id: input.caseId.toLowerCase() }),
  uploadDocumentAndSubscribe: (_input: unknown, result: Created): ResourceKey => ({ kind: 'document', id: String(result.document_id).toLowerCase() }),
  requestAffordabilityInsightAndSubscribe: (_input: unknown, result: Created): ResourceKey => ({ kind: 'affordability', id: String(result.request_id) }),
  requestIncomeEmployerVerificationAndSubscribe: (_input: unknown, result: Created): ResourceKey => ({ kind: 'income-employer', id: String(result.request_id) }),
};

export function createSubscribingActivities(creators: Creators, target: ResourceTarget) {
  const { identityVerification, banking, documents, insights } = creators;
  const subscribed = async <Input extends Subscribed, Result extends object>(
    activityType: keyof typeof subscribedResource,
    input: Input,
    create: () => Promise<Result>,
  ): Promise<Result> => {
    const created = await create();
    await subscribeToResourceWorkflow(target, subscribedResource[activityType](input as never, created as Created), input.subscription);
    return created;
  };
  return {
    /** Find before create: the person's open (Pending) request when `adoptOpenRequest`, else a new one. */
    openIdentityVerificationRequest: (input: Subscribed & { personId: string; adoptOpenRequest: boolean }) =>
      subscribed('openIdentityVerificationRequest', input, async () => {
        const open = input.adoptOpenRequest ? (await identityVerification.listIdentityVerificationRequests({ personId: input.personId })).find((r) => r.status === 'Pending') : undefined;
        return open ?? (await identityVerification.createIdentityVerificationRequest({ personId: input.personId }));
      }),
    createOpenBankingConnectionAndSubscribe: (input: Subscribed & { caseId: string }) =>
      subscribed('createOpenBankingConnectionAndSubscribe', input, () => banking.createOpenBankingConnection({ caseId: input.caseId })),
    uploadDocumentAndSubscribe: (input: Subscribed & { document: DocumentUploadInput }) => subscribed('uploadDocumentAndSubscribe', input, () => documents.uploadDocument(input.document)),
    requestAffordabilityInsightAndSubscribe: (input: Subscribed & { caseId: string }) =>
      subscribed('requestAffordabilityInsightAndSubscribe', input, () => insights.requestAffordabilityInsight({ caseId: input.caseId })),
    requestIncomeEmployerVerificationAndSubscribe: (input: Subscribed & { caseId: string }) =>
      subscribed('requestIncomeEmployerVerificationAndSubscribe', input, () => insights.requestIncomeEmployerVerification({ caseId: input.caseId })),
  };
}
