/**
 * The shape both insight steps share: ask the provider for something computed asynchronously,
 * subscribe to its resource workflow, and wait under a deadline until an event (or the provider's
 * record, polled) says where to read the result.
 */
import type { Duration } from '@temporalio/common';
import { condition } from '@temporalio/workflow';
import type { ResourceKind } from '../provider';
import { defaultDeadlines } from './deadlines';
import type { ResourceDelivery } from './messages';
import { createResourceInbox } from './resourceInbox';
import type { StepStatus } from './stepStatus';
import { lastEventOf } from './lastEvent';

export interface AwaitResultOptions<Found> {
  kind: ResourceKind;
  /** Asks the provider; answers the request id. */
  request: () => Promise<string>;
  /** Where the result is, from an event or a polled record; undefined when the delivery does not say. */
  locate: (delivery: ResourceDelivery, requestId: string) => Found | undefined;
  deadline: Duration;
  reconcileAfter?: Duration;
  update: (changes: Partial<StepStatus<never>>) => unknown;
}

export async function requestAndAwaitResult<Found>(options: AwaitResultOptions<Found>): Promise<{ requestId: string; found: Found | undefined }> {
  let requestId = '';
  let found: Found | undefined;
  const inbox = createResourceInbox((_resource, delivery) => {
    options.update({ lastEvent: lastEventOf(delivery) });
    found ??= options.locate(delivery, requestId);
  });
  requestId = await options.request();
  options.update({ state: 'waiting', providerIds: { request_id: requestId } });
  await inbox.subscribe({ kind: options.kind, id: requestId }, options.reconcileAfter ?? defaultDeadlines.reconcileAfter);
  await condition(() => found !== undefined, options.deadline);
  return { requestId, found };
}
