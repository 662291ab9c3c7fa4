/**
 * What a Temporal call's failure says in gRPC terms, for the client's operations and the case API
 * alike: the status code (the error's own, or its cause's: the client wraps some RPC failures, an
 * Update's or a start's, in a ServiceError), and whether the workflow was not found or is closing.
 */
import { WorkflowNotFoundError, isGrpcServiceError } from '@temporalio/client';
import { isWorkflowClosing } from './temporalRetry';

export function grpcCodeOf(error: unknown): number | undefined {
  return grpcStatusOf(error)?.code;
}

/** The gRPC status under a Temporal call's failure: the error's own, or its cause's. */
function grpcStatusOf(error: unknown): { code: number; details: string } | undefined {
  if (isGrpcServiceError(error)) return error;
  const cause = (error as { cause?: unknown } | null)?.cause;
  return isGrpcServiceError(cause) ? cause : undefined;
}

/** The SDK's WorkflowNotFoundError, or gRPC's NOT_FOUND (5) under a ServiceError. */
export const workflowNotFound = (error: unknown): boolean =>
  error instanceof WorkflowNotFoundError || grpcCodeOf(error) === 5;

/** Temporal refused the call because the workflow's close is under way (temporalRetry.ts tries a few times first). */
export function workflowClosing(error: unknown): boolean {
  const status = grpcStatusOf(error);
  return status !== undefined && isWorkflowClosing(status);
}
