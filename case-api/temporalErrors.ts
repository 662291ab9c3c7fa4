/**
 * Turns what Temporal answers into the case API's answers: an unknown workflow is 404; an action
 * the journey refuses in its state (its Update validator's refusal, a closed journey) is 409 with
 * the journey's message: the request was well formed, the case's state is what stands in its way
 * (a malformed request is a 400 before anything reaches Temporal); a visibility query Temporal
 * refused is 400 with its message; Temporal unreachable or too slow to answer an Update is 503.
 */
import { WorkflowUpdateFailedError, WorkflowUpdateRPCTimeoutOrCancelledError } from '@temporalio/client';
import { grpcCodeOf, workflowNotFound } from '../client/grpcCode';
import {
  BulkRetryTooManyError,
  JourneyClosedError,
  JourneyInputError,
  RequestIdReusedError,
  VisibilityQueryError,
} from '../client/journeyErrors';
import { HttpError } from './httpError';

export function toHttpError(error: unknown, caseId: string): HttpError {
  if (error instanceof HttpError) return error;
  if (workflowNotFound(error)) return unknownCase(caseId);
  if (error instanceof JourneyClosedError) return new HttpError(409, 'case_closed', error.message);
  if (error instanceof JourneyInputError) return new HttpError(400, 'invalid_request', error.message);
  if (error instanceof VisibilityQueryError)
    return new HttpError(
      400,
      'invalid_query',
      `${error.message}; see https://docs.temporal.io/list-filter for the query syntax`,
    );
  if (error instanceof BulkRetryTooManyError) return new HttpError(422, 'too_many_cases', error.message);
  if (error instanceof RequestIdReusedError)
    return new HttpError(
      422,
      'idempotency_key_reused',
      `The Idempotency-Key was already used on this case for ${error.firstStep}, ` +
        `not ${error.step}: send a new key for a new request`,
    );
  if (error instanceof WorkflowUpdateFailedError) {
    const cause = error.cause as { message?: string } | undefined;
    return new HttpError(409, 'action_refused', cause?.message ?? error.message);
  }
  const code = grpcCodeOf(error);
  // The Update was accepted or is still queued, but its answer did not come within the RPC's
  // deadline (a busy worker): the operator may try again, which the Update's own checks make safe.
  if (error instanceof WorkflowUpdateRPCTimeoutOrCancelledError)
    return new HttpError(503, 'temporal_unavailable', 'Temporal did not answer in time; try again');
  // FAILED_PRECONDITION on an Update: Temporal would not hand it to the journey just now (seen on a
  // busy server for an action sent the moment a case started); nothing was done, so try again.
  if (code === 9)
    return new HttpError(
      503,
      'journey_not_ready',
      'Temporal could not hand the action to the journey just now; nothing was done, try again in a moment',
    );
  // Unavailable, deadline exceeded, resource exhausted (a server under load): try again.
  if (code === 14 || code === 4 || code === 8)
    return new HttpError(503, 'temporal_unavailable', 'Temporal did not answer; try again');
  return new HttpError(500, 'internal', 'The request failed unexpectedly', describeUnexpected(error, code));
}

export const unknownCase = (caseId: string) => new HttpError(404, 'case_not_found', `No case ${caseId}`);

/** For the log, never for the caller: the error's class and gRPC code, no message (it may quote input). */
function describeUnexpected(error: unknown, code: number | undefined): string {
  const name = error instanceof Error ? error.name : typeof error;
  return code === undefined ? name : `${name} (gRPC ${code})`;
}
