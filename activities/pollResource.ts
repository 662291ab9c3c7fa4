/**
 * Reconciliation: reads a resource from the provider when its webhook is late (it may be lost:
 * the provider never retries). Settled answers carry the provider's record; the step that waits
 * treats it like the event it stands for. Case banking has no readable status (no endpoint shows
 * a connection's state), so it is never polled.
 *
 * `pollUntilSettled` is one attempt of a poll whose schedule is its retry policy
 * (workflows/retryingPoll.ts): "not yet" is a retryable failure, so the next attempt comes after
 * the policy's backoff without a timer or a workflow task, and costs one billable action. It is
 * marked benign: the SDK logs it at DEBUG and records no failure metric, since waiting is not an
 * error. A provider that fails is another matter: that attempt fails as itself, logged as a
 * failed attempt, and is tried again on the same schedule.
 */
import { ApplicationFailure, ApplicationFailureCategory } from '@temporalio/common';
import type { ResourceKey } from '../provider';
import {
  affordabilityInsightSchema,
  documentSchema,
  identityVerificationResultSchema,
  incomeEmployerResultSchema,
} from '../provider';
import type { PollResult } from '../client/resourceMessages';
import type { ProviderClient } from './providerClient';
import { path, routes, type Route } from './routes';

/** What a poll reads for each kind of resource the provider can be asked about. */
const pollReads = {
  idv: { route: routes.identityVerificationResult, param: 'requestId' },
  affordability: { route: routes.affordabilityInsight, param: 'requestId' },
  'income-employer': { route: routes.incomeEmployer, param: 'requestId' },
  document: { route: routes.document, param: 'documentId' },
} satisfies Partial<Record<ResourceKey['kind'], { route: Route; param: string }>>;

const readOf = (kind: keyof typeof pollReads, id: string) => ({
  route: pollReads[kind].route,
  params: { [pollReads[kind].param]: id },
});

/** The provider path a poll of `resource` reads (undefined: never polled): where polls are counted (bench, tests). */
export function pollPath(resource: ResourceKey): string | undefined {
  if (!(resource.kind in pollReads)) return undefined;
  const read = readOf(resource.kind as keyof typeof pollReads, resource.id);
  return path(read.route, read.params);
}

/** The failure type of a poll that found the resource still waiting. */
const NOT_SETTLED_YET = 'ResourceNotSettledYet';

export function createPollActivities(client: ProviderClient) {
  const activities = {
    async pollUntilSettled(input: { resource: ResourceKey }): Promise<Extract<PollResult, { settled: true }>> {
      const result = await activities.pollResource(input);
      if (result.settled) return result;
      throw ApplicationFailure.create({
        type: NOT_SETTLED_YET,
        message: `${input.resource.kind} not settled yet: polled again after the backoff`,
        category: ApplicationFailureCategory.BENIGN,
      });
    },
    async pollResource(input: { resource: ResourceKey }): Promise<PollResult> {
      const { kind, id } = input.resource;
      switch (kind) {
        case 'idv': {
          const r = await client.call({ ...readOf(kind, id), schema: identityVerificationResultSchema });
          if (r.status === 'Pending') return { settled: false };
          return {
            settled: true,
            eventType: r.status === 'Completed' ? 'IdentityVerification.Completed' : 'IdentityVerification.Expired',
            data: r,
          };
        }
        case 'affordability': {
          const r = await client.call({ ...readOf(kind, id), schema: affordabilityInsightSchema });
          return r.status === 'Complete'
            ? { settled: true, eventType: 'AffordabilityInsights.Completed', data: r }
            : { settled: false };
        }
        case 'income-employer': {
          const r = await client.call({ ...readOf(kind, id), schema: incomeEmployerResultSchema });
          return r.status === 'Pending'
            ? { settled: false }
            : { settled: true, eventType: 'IncomeEmployerInsights.Completed', data: r };
        }
        case 'document': {
          const r = await client.call({ ...readOf(kind, id), schema: documentSchema });
          return r.status === 'Processing'
            ? { settled: false }
            : { settled: true, eventType: 'DocumentProcessing.Completed', data: r };
        }
        case 'case-banking':
        case 'unrouted':
          return { settled: false };
      }
    },
  };
  return activities;
}
