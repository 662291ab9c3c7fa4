/**
 * The case API's rate limits. Requests are counted per API key when they carry a known one (a
 * lender's integration gets its own bucket however many addresses it calls from) and per client
 * address otherwise; behind a proxy the client address is the one the trusted proxy reports
 * (`CASE_API_TRUST_PROXY`), not the proxy's own. Health checks are not counted. Failed console
 * sign-ins have strict buckets of their own (signInFailureLimits), so guessing keys is slow.
 */
import type { Request, RequestHandler } from 'express';
import { ipKeyGenerator, rateLimit } from 'express-rate-limit';
import { findApiKey, type ApiKeyEntry } from './apiKeys';

export const HEALTH_PATHS = new Set(['/healthz', '/readyz']);
export const SIGN_IN_WINDOW_MS = 15 * 60_000;

const clientBucket = (req: Request) => `client:${ipKeyGenerator(req.ip ?? 'unknown')}`;

/** The bucket a request counts against: its API key's name when the key is known, else its client. */
function bucketOf(keys: readonly ApiKeyEntry[]) {
  return (req: Request): string => {
    const match = /^Bearer\s+(\S{1,512})$/i.exec(req.headers.authorization ?? '');
    const entry = match ? findApiKey(keys, match[1]!) : null;
    return entry ? `key:${entry.name}` : clientBucket(req);
  };
}

export function requestRateLimit(keys: readonly ApiKeyEntry[], perMinute: number): RequestHandler {
  return rateLimit({
    windowMs: 60_000,
    limit: perMinute,
    standardHeaders: 'draft-8',
    legacyHeaders: false,
    keyGenerator: bucketOf(keys),
    skip: (req) => HEALTH_PATHS.has(req.path),
    handler: (_req, res) =>
      void res.status(429).json({
        error: 'rate_limited',
        message: 'Too many requests; slow down and retry after the RateLimit-Reset seconds',
      }),
  });
}

/** How many more failed sign-ins one operator name may have from all addresses than from one. */
export const NAME_FAILURES_FACTOR = 5;

/**
 * Counts only refused sign-ins (4xx), in two buckets, so that one client's failures lock out
 * neither another client nor another operator, and one key is not guessed faster from many
 * addresses:
 * - per client address and operator name (the key alone, without a name: per client address):
 *   `failuresPerWindow`; past it, that address waits for that name (or for a key alone);
 * - per operator name, from any address: `NAME_FAILURES_FACTOR` times as many; past it, that
 *   operator waits, wherever they sign in from.
 * `nameOf` answers the operator name a sign-in gives when it is a configured one, else undefined:
 * a made-up name counts against the key-alone bucket of the address, not a bucket of its own.
 */
export function signInFailureLimits(
  failuresPerWindow: number,
  nameOf: (req: Request) => string | undefined,
): RequestHandler[] {
  const refusal = (req: Request) =>
    nameOf(req) === undefined
      ? 'Too many failed sign-ins with a key alone from this address; sign in with your operator name and key, ' +
        'or try again later.'
      : 'Too many failed sign-ins for this operator; try again later.';
  const byAddress = failureLimit(failuresPerWindow, refusal, (req) => {
    const name = nameOf(req);
    return name === undefined ? `sign-in:${clientBucket(req)}` : `sign-in:${clientBucket(req)}:name:${name}`;
  });
  const byName = failureLimit(
    failuresPerWindow * NAME_FAILURES_FACTOR,
    refusal,
    (req) => `sign-in:name:${nameOf(req)}`,
    (req) => nameOf(req) === undefined,
  );
  return [byAddress, byName];
}

function failureLimit(
  limit: number,
  refusal: (req: Request) => string,
  keyGenerator: (req: Request) => string,
  skip?: (req: Request) => boolean,
): RequestHandler {
  return rateLimit({
    windowMs: SIGN_IN_WINDOW_MS,
    limit,
    standardHeaders: 'draft-8',
    legacyHeaders: false,
    skipSuccessfulRequests: true,
    keyGenerator,
    skip,
    handler: (req, res) => void res.status(429).type('text/plain').send(refusal(req)),
  });
}
