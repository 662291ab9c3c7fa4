/**
 * Turns what Temporal answers into the case API's answers: an unknown workflow is 404, an Update
 * its validator refused is 422 with the validator's message, Temporal unreachable or too slow to
 * answer an Update is 503.
 */
import { WorkflowNotFoundError, WorkflowUpdateFailedError, WorkflowUpdateRPCTimeoutOrCancelledError, isGrpcServiceError } from '@temporalio/client';
import { JourneyClosedError, JourneyInputError } from '../client/journeyErrors';
import { HttpError } from './httpError';

export function toHttpError(error: unknown, caseId: string): HttpError {
  if (error instanceof HttpError) return error;
  if (error instanceof WorkflowNotFoundError) return unknownCase(caseId);
  if (error instanceof JourneyClosedError) return new HttpError(422, 'case_closed', error.message);
  if (error instanceof JourneyInputError) return new HttpError(400, 'invalid_request', error.message);
  if (error instanceof WorkflowUpdateFailedError) {
    const cause = error.cause as { message?: string } | undefined;
    return new HttpError(422, 'action_refused', cause?.message ?? error.message);
  }
  if (isGrpcServiceError(error) && error.code === 5) return unknownCase(caseId);
  // The Update was accepted or is still queued, but its answer did not come within the RPC's
  // deadline (a busy worker): the operator may try again, which the Update's own checks make safe.
  if (error instanceof WorkflowUpdateRPCTimeoutOrCancelledError) return new HttpError(503, 'temporal_unavailable', 'Temporal did not answer in time; try again');
  if (isGrpcServiceError(error) && (error.code === 14 || error.code === 4)) return new HttpError(503, 'temporal_unavailable', 'Temporal did not answer; try again');
  return new HttpError(500, 'internal', 'The request failed unexpectedly');
}

export const unknownCase = (caseId: string) => new HttpError(404, 'case_not_found', `No case ${caseId}`);
