/**
 * The `lastEvent` a step shows for a delivery. A delivery whose data failed its schema
 * (`invalid-data`) still reached the step's resource; its problems are shown with it so that an
 * operator sees why the step did not move, instead of a step that seems to wait for nothing.
 */
import type { ResourceDelivery } from '../client/resourceMessages';
import type { LastEvent } from '../client/stepState';

export function lastEventOf(delivery: ResourceDelivery): LastEvent {
  const shown: LastEvent = { eventType: delivery.eventType, receivedAt: delivery.receivedAt };
  if (delivery.parse === 'invalid-data') shown.problems = delivery.problems ?? [];
  return shown;
}
