/**
 * The shape both insight steps share: ask the provider for something computed asynchronously,
 * subscribe to its resource workflow, and wait under a deadline until an event (or the provider's
 * record, polled) says where to read the result.
 */
import type { Duration } from '@temporalio/common';
import { condition } from '@temporalio/workflow';
import type { ResourceKind } from '../provider';
import { defaultDeadlines } from '../client/deadlines';
import type { ResourceDelivery, Subscription } from '../client/resourceMessages';
import type { ResourceInboxes } from './resourceInbox';
import type { StepStatus } from '../client/stepMessages';
import { lastEventOf } from './lastEvent';

export interface AwaitResultOptions<Found> {
  kind: ResourceKind;
  /**
   * Asks the provider; answers the request id, and subscribes this workflow to the new request's
   * resource in the same activity.
   */
  request: (subscription: Subscription) => Promise<string>;
  /** Where the result is, from an event or a polled record; undefined when the delivery does not say. */
  locate: (delivery: ResourceDelivery, requestId: string) => Found | undefined;
  deadline: Duration;
  reconcileAfter?: Duration;
  reconcileBackoffCap?: Duration;
  update: (changes: Partial<StepStatus<never>>) => unknown;
  /** The attempt's inboxes (providerFailure.ts), which open the one this wait reads. */
  inboxes: ResourceInboxes;
}

export async function requestAndAwaitResult<Found>(
  options: AwaitResultOptions<Found>,
): Promise<{ requestId: string; found: Found | undefined }> {
  let requestId = '';
  let found: Found | undefined;
  // An event can come before the request id does (the creating activity subscribes); it is
  // looked at once the id is known.
  const inbox = options.inboxes.create((_resource, delivery) => {
    options.update({ lastEvent: lastEventOf(delivery) });
    if (requestId !== '') found ??= options.locate(delivery, requestId);
  });
  const reconcileAfter = options.reconcileAfter ?? defaultDeadlines.reconcileAfter;
  // The creating call runs to its answer (activityOptions.ts): a cancel or waive meanwhile never loses the request.
  requestId = await options.request(inbox.subscription(reconcileAfter, options.reconcileBackoffCap));
  inbox.track({ kind: options.kind, id: requestId });
  for (const earlier of inbox.of({ kind: options.kind, id: requestId })) found ??= options.locate(earlier, requestId);
  options.update({ state: 'waiting', providerIds: { request_id: requestId } });
  await condition(() => found !== undefined, options.deadline);
  return { requestId, found };
}
