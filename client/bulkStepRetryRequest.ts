/**
 * What a bulk step retry asks for (client/bulkStepRetry.ts), checked the same way by the CLI and the
 * case API; zod only, so the CLI checks its arguments without loading the Temporal SDK.
 */
import { z } from 'zod';
import { operatorRequestIdSchema } from './operatorRequestId';

/** The most cases one invocation plans or retries; narrow the query for more. */
export const bulkRetryMaxCases = 500;
export const bulkRetryMaxConcurrency = 16;
export const bulkRetryDefaultConcurrency = 4;
/**
 * How long one case's retry may wait for the journey's answer before it is reported `failed`: a
 * journey whose workflow tasks fail never answers, and the run goes on to the other cases.
 */
export const bulkRetryAnswerWithinMs = 60_000;

/** A missing field is named as such, with what to give; another wrong type keeps zod's message. */
const required = (what: string) => (issue: { input?: unknown }) =>
  issue.input === undefined ? `is required: ${what}` : undefined;

/** What a bulk retry asks for, checked the same way by the CLI and the case API. */
export const bulkStepRetryRequestSchema = z.object({
  where: z
    .string({ error: required('a visibility query, e.g. "JourneyState = \'needs_attention\'"') })
    .trim()
    .min(1, 'must not be empty: a visibility query, e.g. "JourneyState = \'needs_attention\'"')
    .max(2000)
    .meta({
      description:
        "A Temporal visibility query (e.g. JourneyState = 'needs_attention' AND StartTime > " +
        "'2025-01-01T00:00:00Z'), combined with: journeys of this task queue that are running",
      examples: ["JourneyState = 'needs_attention'", "CaseId IN ('case-1', 'case-2')"],
    }),
  step: z
    .string({ error: required('the step key to retry, e.g. credit-report') })
    .trim()
    .min(1, 'must not be empty')
    .max(300)
    .meta({ description: 'The step key to retry on each case, e.g. credit-report or banking' }),
  reason: z
    .string({ error: required('why; it is recorded with each new attempt') })
    .trim()
    .min(1, 'must not be empty: it is recorded with each new attempt')
    .max(500)
    .meta({ description: 'Why (recorded with each new attempt)' }),
  fresh: z
    .boolean()
    .optional()
    .meta({ description: 'Ask the provider for a new purchase on each case instead of continuing what it holds' }),
  requestId: operatorRequestIdSchema.optional().meta({
    description:
      "The run's id (1 to 200 printable ASCII characters): each case's Update id is " +
      'retry-step/<requestId>/<caseId>, so re-running with it answers cases already retried ' +
      'with their first result. Generated when absent, and returned.',
  }),
  concurrency: z
    .number()
    .int()
    .min(1)
    .max(bulkRetryMaxConcurrency)
    .default(bulkRetryDefaultConcurrency)
    .meta({ description: `Cases retried at once (1 to ${bulkRetryMaxConcurrency})` }),
});
export type BulkStepRetryRequest = z.output<typeof bulkStepRetryRequestSchema>;
