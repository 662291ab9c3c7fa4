/**
 * Which provider resources a delivery is about (docs/architecture.md, "One delivery, end to end"):
 * one table, one pure function. Each key names a resource workflow `resource/<kind>/<id>` that
 * receives the delivery.
 */
import { z } from 'zod';
import type { KnownEventType } from './eventCatalogue';
import type { ParsedDelivery } from './webhookEnvelope';

export const resourceKinds = [
  'idv',
  'affordability',
  'income-employer',
  'document',
  'case-banking',
  'unrouted',
] as const;
export type ResourceKind = (typeof resourceKinds)[number];

export interface ResourceKey {
  kind: ResourceKind;
  id: string;
}

export { resourceWorkflowId } from './resourceWorkflowId';

/** Lower-cased so that `Case`/`case` and GUID spellings land on one workflow. */
const caseBanking = (entityId: string): ResourceKey => ({ kind: 'case-banking', id: entityId.toLowerCase() });
const documentKey = (documentId: string): ResourceKey => ({ kind: 'document', id: documentId.toLowerCase() });

/** The ids only: a delivery whose data fails its full schema still reaches its resource. */
const idText = z.string().min(1);

type KeyReader = (data: unknown) => ResourceKey[] | undefined;

function reader<S extends z.ZodType>(ids: S, keys: (ids: z.output<S>) => ResourceKey[]): KeyReader {
  return (data) => {
    const parsed = ids.safeParse(data);
    return parsed.success ? keys(parsed.data) : undefined;
  };
}

const idvKeys = reader(z.object({ identity_request: z.object({ request_id: idText }) }), (d) => [
  { kind: 'idv', id: d.identity_request.request_id },
]);
const documentKeys = reader(z.object({ document: z.object({ document_id: idText }) }), (d) => [
  documentKey(d.document.document_id),
]);
const bankingKeys = reader(z.object({ entity_id: idText }), (d) => [caseBanking(d.entity_id)]);

/** One table: which ids of each known event's data name its resources. */
const keyReaders: Record<KnownEventType, KeyReader> = {
  'IdentityVerification.Completed': idvKeys,
  'IdentityVerification.Expired': idvKeys,
  'AffordabilityInsights.Completed': reader(z.object({ request_id: idText }), (d) => [
    { kind: 'affordability', id: d.request_id },
  ]),
  'IncomeEmployerInsights.Completed': reader(
    z.object({ income_and_employer_request: z.object({ request_id: idText }) }),
    (d) => [{ kind: 'income-employer', id: d.income_and_employer_request.request_id }],
  ),
  'BankStatementProcessing.Completed': reader(
    z.object({ document: z.object({ document_id: idText }), entity_id: idText }),
    (d) => [documentKey(d.document.document_id), caseBanking(d.entity_id)],
  ),
  'DocumentProcessing.Completed': documentKeys,
  'PayslipProcessing.Completed': documentKeys,
  'SA302Processing.Completed': documentKeys,
  'TaxOverviewProcessing.Completed': documentKeys,
  'OpenBankingProcessing.Completed': bankingKeys,
  'BankingProcessing.Completed': bankingKeys,
};

/**
 * The resources a delivery is about, read from its ids alone, so that data failing its full
 * schema (`invalid-data`) still reaches its resource. Deliveries nobody can claim (an unknown
 * event type, ids that cannot be read) go to `resource/unrouted/<event type>` so they stay
 * visible; the bridge narrows that id further (per day).
 */
export function correlationKeys(delivery: ParsedDelivery): ResourceKey[] {
  const keys =
    delivery.kind === 'unknown-event-type' ? undefined : keyReaders[delivery.eventType](delivery.envelope.data);
  return keys ?? [{ kind: 'unrouted', id: delivery.eventType }];
}
