/**
 * Validates an activity's input at the boundary. A bad input never gets better by retrying, so it
 * fails non-retryably, naming the fields at fault.
 */
import { ApplicationFailure } from '@temporalio/common';
import type { z } from 'zod';
import { describeIssues } from '../provider';

export const INVALID_ACTIVITY_INPUT = 'InvalidActivityInput';

export function validateInput<Schema extends z.ZodType>(
  schema: Schema,
  value: unknown,
  what: string,
): z.output<Schema> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const problems = describeIssues(parsed.error);
  throw ApplicationFailure.create({
    type: INVALID_ACTIVITY_INPUT,
    message: `${what}: ${problems.join('; ')}`,
    nonRetryable: true,
    details: [{ problems }],
  });
}
