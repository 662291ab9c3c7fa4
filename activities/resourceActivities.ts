/** Activities that let a journey subscribe to a resource workflow (a workflow cannot signalWithStart). */
import type { ResourceKey } from '../provider';
import type { Subscription } from '../client/resourceMessages';
import { subscribeToResourceWorkflow, type ResourceTarget } from './signalResource';

export interface SubscribeToResourceInput {
  resource: ResourceKey;
  subscription: Subscription;
}

export function createResourceActivities(target: ResourceTarget) {
  return {
    async subscribeToResource(input: SubscribeToResourceInput): Promise<void> {
      await subscribeToResourceWorkflow(target, input.resource, input.subscription);
    },
  };
}

export type ResourceActivities = ReturnType<typeof createResourceActivities>;
