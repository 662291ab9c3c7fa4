/**
 * Records, in the case file, resources the provider announced while no step waited for them
 * (workflows/resourceSighting.ts calls this): each with the case the provider says it belongs to,
 * so that a step whose creating call's answer was lost finds what the provider made
 * (purchaseFinders.ts). Banking and income-and-employer events name the case (`entity_id`); an
 * affordability insight's and a document's record, read through the event's link, do.
 */
import { z } from 'zod';
import type { CaseFileStore } from '../case-file/store';
import type { Sighting } from '../case-file/providerSightings';
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
      for (const delivery of input.deliveries) {
        const sighting = await sightingOf(delivery);
        if (sighting) seen.set(`${sighting.kind}/${sighting.provider_id}`, sighting);
      }
      await caseFile.recordSightings([...seen.values()]);
      return seen.size;
    },
  };
}
