/**
 * The data of a delivery, typed, without parsing it again. Every run of a workflow evaluates the
 * bundle's modules, so zod schemas imported here would be built again for each run (a third of
 * the workflow thread's CPU). The checks are done already, with the same schemas:
 * - `known`: the bridge validated the data against its event type's schema
 *   (provider/webhookEnvelope.ts `parseDelivery`); data that fails it arrives as `invalid-data`.
 *   The bridge forwards the data as sent, not as the schema transformed it: document status
 *   words are mapped with documentStatusOf where a step reads them.
 * - `polled`: the pollResource activity (activities/pollResource.ts) read the record with the
 *   record's schema, and records what that schema returned.
 */
import type {
  AffordabilityInsight,
  IdentityVerificationResult,
  IncomeEmployerResult,
  KnownEventType,
  ProviderDocument,
  SentEventData,
} from '../provider';
import type { ResourceDelivery } from '../client/resourceMessages';

/** The data of a `known` delivery of `eventType` (as sent), or undefined for any other delivery. */
export function sentData<K extends KnownEventType>(
  delivery: ResourceDelivery,
  eventType: K,
): SentEventData[K] | undefined {
  return delivery.parse === 'known' && delivery.eventType === eventType
    ? (delivery.data as SentEventData[K])
    : undefined;
}

/** The record pollResource returns for each kind of resource it can read. */
export interface PolledRecords {
  idv: IdentityVerificationResult;
  affordability: AffordabilityInsight;
  'income-employer': IncomeEmployerResult;
  document: ProviderDocument;
}

/** The provider's record a `polled` delivery of a `kind` resource carries, or undefined for any other delivery. */
export function polledRecord<K extends keyof PolledRecords>(delivery: ResourceDelivery): PolledRecords[K] | undefined {
  return delivery.parse === 'polled' ? (delivery.data as unknown as PolledRecords[K]) : undefined;
}
