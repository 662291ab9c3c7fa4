/** Delivers a routed delivery to its resource workflows; resolves only when Temporal accepted all. */
import type { Client } from '@temporalio/client';
import { deliverToResource } from '../activities/signalResource';
import type { RoutedDelivery } from './routeDelivery';

export function temporalSignaller(client: Client, taskQueue: string) {
  return async (routed: RoutedDelivery): Promise<void> => {
    await Promise.all(routed.targets.map((t) => deliverToResource({ client, taskQueue }, t.resource, t.delivery)));
  };
}
