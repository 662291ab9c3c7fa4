/**
 * Records, in the case file, resources the provider announced while no step waited for them
 * (workflows/resourceSighting.ts calls this): each with the case the provider says it belongs to,
 * so that a step whose creating call's answer was lost finds what the provider made
 * (purchaseFinders.ts). Banking and income-and-employer events name the case (`entity_id`); an
 * affordability insight's and a document's record, read through the event's link, do.
 *
 * The same deliveries may be a later result for a step that has completed with another: a second
 * IDV result for the request, a new banking outcome for the case. Those are handed to the case
 * file, which records `case.evidence_superseded` when they contradict what the journey used
 * (case-file/supersededEvidence.ts).
 */
import { z } from 'zod';
import type { CaseFileStore } from '../case-file/store';
import type { Sighting } from '../case-file/providerSightings';
import { recordLaterResults, type LaterResult } from '../case-file/supersededEvidence';
import { inTransaction } from '../case-file/transaction';
import { affordabilityInsightSchema, documentSchema, type ResourceKey } from '../provider';
import type { ProviderClient } from './providerClient';

export interface SightingInput {
  resource: ResourceKey;
  /** The deliveries that came while nobody was subscribed: event type and data as sent. */
  deliveries: { eventType: string; data: unknown }[];
}

const insightEvent = z.object({ request_id: z.string().min(1), affordability_insight_endpoint: z.string().min(1) });
const incomeEmployerEvent = z.object({
  entity_id: z.string().min(1),
  income_and_employer_request: z.object({ request_id: z.string().min(1) }),
});
const connectionEvent = z.object({ entity_id: z.string().min(1), bank_connection_id: z.string().min(1) });
const documentEvent = z.object({
  document: z.object({ document_id: z.string().min(1), document_endpoint: z.string().min(1) }),
});
const idvResultEvent = z.object({
  identity_request: z.object({ request_id: z.string().min(1) }),
  verification_status: z.string().min(1),
});
const bankingOutcomeEvent = z.object({
  entity_id: z.string().min(1),
  bank_connection_id: z.string().min(1).nullable(),
  status: z.string().min(1),
});

/** A delivery that is a result a completed step may have used another of. */
function laterResultOf({ eventType, data }: SightingInput['deliveries'][number]): LaterResult | undefined {
  if (eventType === 'IdentityVerification.Completed') {
    const idv = idvResultEvent.safeParse(data);
    if (!idv.success) return undefined;
    const { identity_request, verification_status } = idv.data;
    return {
      kind: 'identityVerification',
      requestId: identity_request.request_id,
      verificationStatus: verification_status,
    };
  }
  if (!/^(OpenBanking|Banking)Processing\.Completed$/.test(eventType)) return undefined;
  const banking = bankingOutcomeEvent.safeParse(data);
  if (!banking.success) return undefined;
  const { entity_id, bank_connection_id, status } = banking.data;
  return { kind: 'bankTransactions', caseId: entity_id, bankConnectionId: bank_connection_id, status };
}

export function createSightingActivities(client: ProviderClient, caseFile: CaseFileStore) {
  const sightingOf = async ({
    eventType,
    data,
  }: SightingInput['deliveries'][number]): Promise<Sighting | undefined> => {
    const ie = eventType === 'IncomeEmployerInsights.Completed' ? incomeEmployerEvent.safeParse(data) : undefined;
    if (ie?.success) {
      const { entity_id, income_and_employer_request } = ie.data;
      return {
        kind: 'income-employer',
        provider_id: income_and_employer_request.request_id,
        case_id: entity_id,
        file_name: null,
      };
    }
    const connection = /^(OpenBanking|Banking)Processing\.Completed$/.test(eventType)
      ? connectionEvent.safeParse(data)
      : undefined;
    if (connection?.success) {
      const { entity_id, bank_connection_id } = connection.data;
      return { kind: 'open-banking', provider_id: bank_connection_id, case_id: entity_id, file_name: null };
    }
    const insight = eventType === 'AffordabilityInsights.Completed' ? insightEvent.safeParse(data) : undefined;
    if (insight?.success) {
      const read = await client.follow({
        link: insight.data.affordability_insight_endpoint,
        schema: affordabilityInsightSchema,
      });
      return { kind: 'affordability', provider_id: read.request_id, case_id: read.entity_id, file_name: null };
    }
    const doc = /Processing\.Completed$/.test(eventType) ? documentEvent.safeParse(data) : undefined;
    if (doc?.success) {
      const read = await client.follow({ link: doc.data.document.document_endpoint, schema: documentSchema });
      return {
        kind: 'document',
        provider_id: read.document_id.toLowerCase(),
        case_id: read.entity_id,
        file_name: read.file_name,
      };
    }
    return undefined;
  };
  return {
    async recordResourceSightings(input: SightingInput): Promise<number> {
      const seen = new Map<string, Sighting>();
      const later: LaterResult[] = [];
      for (const delivery of input.deliveries) {
        const sighting = await sightingOf(delivery);
        if (sighting) seen.set(`${sighting.kind}/${sighting.provider_id}`, sighting);
        const result = laterResultOf(delivery);
        if (result) later.push(result);
      }
      await caseFile.recordSightings([...seen.values()]);
      if (later.length > 0) await inTransaction(caseFile.pool, (c) => recordLaterResults(c, later));
      return seen.size;
    },
  };
}
