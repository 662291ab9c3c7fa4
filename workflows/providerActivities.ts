/** The activities as workflows call them, with the options of activityOptions.ts. */
import type { Duration } from '@temporalio/common';
import { proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../activities';
import { activityOptions } from './activityOptions';

/**
 * Provider calls retried within `budget` (default `deadlines.providerCalls`). `onAnswer` runs
 * after each call that succeeded: a step that showed the provider unavailable goes back to what
 * it was doing.
 */
export function providerActivities(budget?: Duration, onAnswer?: () => void) {
  const activities = proxyActivities<Activities>(activityOptions.provider(budget));
  if (!onAnswer) return activities;
  return new Proxy(activities, {
    get(target, name) {
      const call = Reflect.get(target, name) as (...args: unknown[]) => Promise<unknown>;
      return async (...args: unknown[]) => {
        const result = await call(...args);
        onAnswer();
        return result;
      };
    },
  });
}

export const provider = providerActivities();

export const resourceSubscriptions = proxyActivities<Pick<Activities, 'subscribeToResource'>>(activityOptions.subscribe);
