/** The activities as workflows call them, with the options of activityOptions.ts. */
import type { Duration } from '@temporalio/common';
import { proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../activities';
import { activityOptions } from './activityOptions';

/** Provider calls retried within `budget` (default `deadlines.providerCalls`). */
export function providerActivities(budget?: Duration) {
  return proxyActivities<Activities>(activityOptions.provider(budget));
}

export const provider = providerActivities();

export const resourceSubscriptions = proxyActivities<Pick<Activities, 'subscribeToResource'>>(activityOptions.subscribe);
