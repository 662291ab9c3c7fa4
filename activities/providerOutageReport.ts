/**
 * Tells a step that the provider is unavailable while one of its calls keeps being retried (an
 * outage of hours rides through without an operator). Temporal retries the activity with
 * backoff and the workflow hears nothing until the call ends; this activity interceptor signals the
 * step on the first failed try and then on tries 2, 4, 8, … (about a dozen signals over six hours),
 * so `status` shows `waiting`, "provider unavailable since …", with the provider's last answer.
 *
 * Only answers worth retrying count (5xx, 408, 429, a timeout, the provider unreachable): a 4xx
 * ends the call at once and says so itself. Telling is best effort: the call's own failure is what
 * Temporal records and retries, whatever the signal does.
 */
import type { Client } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import type { ActivityInterceptorsFactory } from '@temporalio/worker';
import { providerUnavailableSignal, type ProviderError } from '../client/stepMessages';
import { isRetryableStatus } from './providerFailures';

/** Workflows that are not steps and have no use for the news: the journey and resource workflows. */
const NOT_STEPS = new Set(['onboardCase', 'resourceWorkflow']);

const OUTAGE_TYPES = new Set(['ProviderTimeout', 'ProviderUnreachable']);

/** The provider's answer, when `error` is a failure worth retrying; else undefined. */
export function outageAnswer(error: unknown): ProviderError | undefined {
  if (!(error instanceof ApplicationFailure) || error.nonRetryable) return undefined;
  const status = (error.details?.[0] as { status?: unknown } | undefined)?.status;
  if (typeof status === 'number') return isRetryableStatus(status) ? { status, message: error.message } : undefined;
  return error.type && OUTAGE_TYPES.has(error.type) ? { status: null, message: error.message } : undefined;
}

/** The first try, then every power of two: the news stays fresh while the signals stay few. */
export function worthTelling(attempt: number): boolean {
  return attempt >= 1 && (attempt & (attempt - 1)) === 0;
}

export function providerOutageReporter(client: Client): ActivityInterceptorsFactory {
  return (ctx) => ({
    inbound: {
      async execute(input, next) {
        try {
          return await next(input);
        } catch (error) {
          const { workflowExecution, workflowType, attempt, scheduledTimestampMs } = ctx.info;
          const answer = outageAnswer(error);
          if (answer && workflowExecution && workflowType && !NOT_STEPS.has(workflowType) && worthTelling(attempt)) {
            const since = new Date(scheduledTimestampMs).toISOString();
            await client.workflow
              .getHandle(workflowExecution.workflowId, workflowExecution.runId)
              .signal(providerUnavailableSignal, { since, answer, attempt })
              .catch(() => undefined);
          }
          throw error;
        }
      },
    },
  });
}
