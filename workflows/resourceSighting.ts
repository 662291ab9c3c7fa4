/**
 * Sightings (docs/architecture.md, "Journeys", the purchase ledger): a resource the provider
 * announced while no step was subscribed may be what a creating call whose answer was lost made.
 * After a grace (a step that got its answer subscribes within it), the resource workflow hands the
 * deliveries that came meanwhile to an activity that records, in the case file, the case the
 * provider says the resource belongs to (activities/sightingActivities.ts). Only for resources a
 * step buys and can lose: insights, documents and the case's banking; and IDV requests, whose later
 * result may supersede the one a step used (activities/sightingActivities.ts).
 */
import { log, proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../activities';
import type { ResourceDelivery } from '../client/resourceMessages';
import type { ResourceKey, ResourceKind } from '../provider';
import { activityOptions } from './activityOptions';

/** How long a delivery waits for a subscriber before it is recorded as a sighting. */
export const SIGHTING_GRACE_MS = 5_000;

const sightable: readonly ResourceKind[] = ['affordability', 'income-employer', 'document', 'case-banking', 'idv'];

export function createSightings(resource: ResourceKey) {
  const activities = proxyActivities<Pick<Activities, 'recordResourceSightings'>>(activityOptions.provider());
  let unsighted: ResourceDelivery[] = [];
  let since: number | undefined;
  return {
    /** A delivery that came while nobody was subscribed. */
    seen(delivery: ResourceDelivery): void {
      if (!sightable.includes(resource.kind) || delivery.parse !== 'known') return;
      unsighted.push(delivery);
      since ??= Date.now();
    },
    /** A step subscribed: it knows the resource, nothing to record. */
    claimed(): void {
      unsighted = [];
      since = undefined;
    },
    /** When the next record is due (infinity: none). */
    dueAt(): number {
      return since === undefined ? Number.POSITIVE_INFINITY : since + SIGHTING_GRACE_MS;
    },
    /** Records what is due; a failure is logged, never the resource's end. */
    async record(): Promise<void> {
      const deliveries = unsighted.map(({ eventType, data }) => ({ eventType, data }));
      unsighted = [];
      since = undefined;
      if (deliveries.length === 0) return;
      await activities.recordResourceSightings({ resource, deliveries }).catch((error: unknown) => {
        log.warn('could not record the resource as sighted', { resource, error: String(error) });
      });
    },
  };
}
