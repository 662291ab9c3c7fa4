/**
 * What a Temporal call's failure says in gRPC terms, for the client's operations and the case API
 * alike: the status code (the error's own, or its cause's: the client wraps some RPC failures, an
 * Update's or a start's, in a ServiceError), and whether the workflow was not found.
 */
import { WorkflowNotFoundError, isGrpcServiceError } from '@temporalio/client';

export function grpcCodeOf(error: unknown): number | undefined {
  if (isGrpcServiceError(error)) return error.code;
  const cause = (error as { cause?: unknown } | null)?.cause;
  return isGrpcServiceError(cause) ? cause.code : undefined;
}

/** The SDK's WorkflowNotFoundError, or gRPC's NOT_FOUND (5) under a ServiceError. */
export const workflowNotFound = (error: unknown): boolean => error instanceof WorkflowNotFoundError || grpcCodeOf(error) === 5;
