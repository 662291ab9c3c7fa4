/**
 * Reconciliation: reads a resource from the provider when its webhook is late (it may be lost:
 * the provider never retries). Settled answers carry the provider's record; the step that waits
 * treats it like the event it stands for. Case banking has no readable status (no endpoint shows
 * a connection's state), so it is never polled.
 */
import type { ResourceKey } from '../provider';
import { affordabilityInsightSchema, documentSchema, identityVerificationResultSchema, incomeEmployerResultSchema } from '../provider';
import type { PollResult } from '../client/resourceMessages';
import type { ProviderClient } from './providerClient';
import { routes } from './routes';

export function createPollActivities(client: ProviderClient) {
  return {
    async pollResource(input: { resource: ResourceKey }): Promise<PollResult> {
      const { kind, id } = input.resource;
      switch (kind) {
        case 'idv': {
          const r = await client.call({ route: routes.identityVerificationResult, params: { requestId: id }, schema: identityVerificationResultSchema });
          if (r.status === 'Pending') return { settled: false };
          return { settled: true, eventType: r.status === 'Completed' ? 'IdentityVerification.Completed' : 'IdentityVerification.Expired', data: r };
        }
        case 'affordability': {
          const r = await client.call({ route: routes.affordabilityInsight, params: { requestId: id }, schema: affordabilityInsightSchema });
          return r.status === 'Complete' ? { settled: true, eventType: 'AffordabilityInsights.Completed', data: r } : { settled: false };
        }
        case 'income-employer': {
          const r = await client.call({ route: routes.incomeEmployer, params: { requestId: id }, schema: incomeEmployerResultSchema });
          return r.status === 'Pending' ? { settled: false } : { settled: true, eventType: 'IncomeEmployerInsights.Completed', data: r };
        }
        case 'document': {
          const r = await client.call({ route: routes.document, params: { documentId: id }, schema: documentSchema });
          return r.status === 'Processing' ? { settled: false } : { settled: true, eventType: 'DocumentProcessing.Completed', data: r };
        }
        case 'case-banking':
        case 'unrouted':
          return { settled: false };
      }
    },
  };
}
