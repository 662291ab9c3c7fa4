/**
 * The gRPC retry policy of every Temporal client the project builds (temporalClient.ts): the SDK's,
 * except for one answer. While a workflow closes, Temporal refuses a signal or an Update to it with
 * RESOURCE_EXHAUSTED "workflow is closing"; the SDK backs off from RESOURCE_EXHAUSTED as from an
 * overloaded server, a second and more, so an operator action that raced a journey's close took
 * about 1.8 s to learn the journey had closed (the case API's contract allows 2 s). A close takes
 * a workflow task, not seconds: such an answer is tried again soon, a few times, and then left to
 * the caller (journeyOperations.ts refuses the action as on a closed journey).
 */
import { defaultGrpcRetryOptions, makeGrpcRetryInterceptor, type GrpcRetryOptions } from '@temporalio/client';

type StatusObject = Parameters<GrpcRetryOptions['retryableDecider']>[1];

const RESOURCE_EXHAUSTED = 8;

/** Temporal's answer to an operation on a workflow whose close is under way. */
export function isWorkflowClosing(status: Pick<StatusObject, 'code' | 'details'>): boolean {
  return status.code === RESOURCE_EXHAUSTED && /workflow is closing/i.test(status.details ?? '');
}

/** Tries after the first while the workflow closes, and the wait before each (0.75 s in all). */
export const closingRetryDelaysMs = [50, 100, 150, 200, 250] as const;

export function temporalRetryOptions(defaults: GrpcRetryOptions = defaultGrpcRetryOptions()): GrpcRetryOptions {
  return {
    retryableDecider: (attempt, status) =>
      isWorkflowClosing(status) ? attempt <= closingRetryDelaysMs.length : defaults.retryableDecider(attempt, status),
    delayFunction: (attempt, status) =>
      isWorkflowClosing(status) ? (closingRetryDelaysMs[attempt - 1] ?? 250) : defaults.delayFunction(attempt, status),
  };
}

/** The interceptors for `Connection.connect`/`Connection.lazy`: this policy in place of the SDK's default one. */
export const temporalRetryInterceptors = () => [makeGrpcRetryInterceptor(temporalRetryOptions())];
