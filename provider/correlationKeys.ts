/**
 * Which provider resources a delivery is about (DESIGN.md §3): one table, one pure function.
 * Each key names a resource workflow `resource/<kind>/<id>` that receives the delivery.
 */
import type { ParsedDelivery, KnownDelivery } from './webhookEnvelope';

export const resourceKinds = ['idv', 'affordability', 'income-employer', 'document', 'case-banking', 'unrouted'] as const;
export type ResourceKind = (typeof resourceKinds)[number];

export interface ResourceKey {
  kind: ResourceKind;
  id: string;
}

export function resourceWorkflowId(key: ResourceKey): string {
  return `resource/${key.kind}/${key.id}`;
}

/** Lower-cased so that `Case`/`case` and GUID spellings land on one workflow. */
const caseBanking = (entityId: string): ResourceKey => ({ kind: 'case-banking', id: entityId.toLowerCase() });
const documentKey = (documentId: string): ResourceKey => ({ kind: 'document', id: documentId.toLowerCase() });

function knownKeys(d: KnownDelivery): ResourceKey[] {
  switch (d.eventType) {
    case 'IdentityVerification.Completed':
    case 'IdentityVerification.Expired':
      return [{ kind: 'idv', id: d.data.identity_request.request_id }];
    case 'AffordabilityInsights.Completed':
      return [{ kind: 'affordability', id: d.data.request_id }];
    case 'IncomeEmployerInsights.Completed':
      return [{ kind: 'income-employer', id: d.data.income_and_employer_request.request_id }];
    case 'BankStatementProcessing.Completed':
      return [documentKey(d.data.document.document_id), caseBanking(d.data.entity_id)];
    case 'DocumentProcessing.Completed':
    case 'PayslipProcessing.Completed':
    case 'SA302Processing.Completed':
    case 'TaxOverviewProcessing.Completed':
      return [documentKey(d.data.document.document_id)];
    case 'OpenBankingProcessing.Completed':
    case 'BankingProcessing.Completed':
      return [caseBanking(d.data.entity_id)];
  }
}

/**
 * The resources a delivery is about. Deliveries nobody can claim (an unknown event type, data
 * that does not match its schema) go to `resource/unrouted/<event type>` so they stay visible.
 */
export function correlationKeys(delivery: ParsedDelivery): ResourceKey[] {
  if (delivery.kind === 'known') return knownKeys(delivery);
  return [{ kind: 'unrouted', id: delivery.eventType }];
}
