/**
 * Whether a creating call that failed may still have created something at the provider. An
 * answer says it did not: a 4xx, a 503 (not taken) or 429 (not now), refused credentials. A call
 * that never left (the connection refused, the name not resolved) did not either. Everything else
 * leaves the outcome unknown: a timeout, a connection cut after sending, a 500/502/504 (the
 * provider or a gateway failed while it may have been working), a 2xx whose body we could not read,
 * a cancellation. docs/provider-assumptions.md lists these as assumptions.
 */
import { ApplicationFailure } from '@temporalio/common';

const NOT_SENT = /ECONNREFUSED|ENOTFOUND|EAI_AGAIN|EHOSTUNREACH|ENETUNREACH/;
const UNKNOWN_STATUSES = new Set([500, 502, 504]);

export function creationOutcomeUnknown(error: unknown): boolean {
  if (!(error instanceof ApplicationFailure)) return true;
  const status = (error.details?.[0] as { status?: unknown } | undefined)?.status;
  if (typeof status === 'number') return UNKNOWN_STATUSES.has(status);
  if (error.type === 'ProviderAuthenticationFailed') return false;
  if (error.type === 'ProviderUnreachable') return !NOT_SENT.test(error.message);
  return true;
}
