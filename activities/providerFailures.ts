/**
 * Error classification (docs/architecture.md, "Journeys", bounded provider calls): 4xx (but
 * 408/429) are non-retryable with the HTTP status as failure type; 408/429/5xx and network failures
 * are retryable, honouring `Retry-After`. The provider's error body is kept in the failure's
 * details. Retries are Temporal's, not ours. A 3xx is never followed (fetch with
 * `redirect: 'manual'`): it would carry the bearer token, or the client secret, to wherever it
 * points, so it is a non-retryable `ProviderRedirect` naming the status and that place.
 */
import { ApplicationFailure } from '@temporalio/common';

export const RETRYABLE_STATUSES = new Set([408, 429]);

/** The failure type of an HTTP status, e.g. `HTTP_422`. */
export function httpFailureType(status: number): string {
  return `HTTP_${status}`;
}

export function isRetryableStatus(status: number): boolean {
  return status >= 500 || RETRYABLE_STATUSES.has(status);
}

/** `Retry-After` as milliseconds: delta-seconds or an HTTP date (RFC 9110 §10.2.3). */
export function retryAfterMs(header: string | null, now = Date.now()): number | undefined {
  if (!header) return undefined;
  const trimmed = header.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}

export function classifyHttpFailure(
  response: Response,
  bodyText: string,
  method: string,
  url: string,
): ApplicationFailure {
  const status = response.status;
  if (isRedirect(status)) return redirectFailure(response, method, url);
  const body = parseBody(bodyText);
  const where = `${method} ${new URL(url).pathname}`;
  const details = [{ status, method, path: new URL(url).pathname, body }];
  if (!isRetryableStatus(status)) {
    return ApplicationFailure.create({
      type: httpFailureType(status),
      message: `Provider answered ${status} to ${where}${describeBody(body)}`,
      nonRetryable: true,
      details,
    });
  }
  const delay = retryAfterMs(response.headers.get('retry-after'));
  return ApplicationFailure.create({
    type: httpFailureType(status),
    message: `Provider answered ${status} to ${where}; retrying${delay !== undefined ? ` after ${delay} ms` : ''}`,
    nonRetryable: false,
    details,
    nextRetryDelay: delay,
  });
}

export function isRedirect(status: number): boolean {
  return status >= 300 && status < 400;
}

/** Where a redirect pointed, without its query or fragment (they may carry codes or tokens). */
function redirectTarget(location: string | null, url: string): string {
  if (!location) return 'no Location';
  try {
    const target = new URL(location, url);
    return `${target.origin}${target.pathname}`;
  } catch {
    return 'an unreadable Location';
  }
}

function redirectFailure(response: Response, method: string, url: string): ApplicationFailure {
  const status = response.status;
  const path = new URL(url).pathname;
  const target = redirectTarget(response.headers.get('location'), url);
  return ApplicationFailure.create({
    type: 'ProviderRedirect',
    message: `Provider answered ${status} to ${method} ${path}, redirecting to ${target}; redirects are not followed`,
    nonRetryable: true,
    details: [{ status, method, path, location: target }],
  });
}

export function classifyNetworkFailure(error: unknown, method: string, url: string): ApplicationFailure {
  const timedOut = error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');
  return ApplicationFailure.create({
    type: timedOut ? 'ProviderTimeout' : 'ProviderUnreachable',
    message:
      `${method} ${new URL(url).pathname} ` +
      `${timedOut ? 'timed out' : `failed: ${String((error as Error)?.cause ?? error)}`}`,
    nonRetryable: false,
  });
}

/** The body as JSON when it is JSON, else (a bounded piece of) the text. */
export function parseBody(text: string): unknown {
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    return text.slice(0, 2_000);
  }
}

function describeBody(body: unknown): string {
  if (body && typeof body === 'object' && 'message' in body && typeof body.message === 'string')
    return `: ${body.message}`;
  return '';
}
