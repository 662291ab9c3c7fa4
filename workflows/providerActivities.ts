/** The activities as workflows call them: one timeout and retry policy for every provider call. */
import { proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../activities';

export const provider = proxyActivities<Activities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute' },
});
