/**
 * The case API's rate limits. Requests are counted per API key when they carry a known one (a
 * lender's integration gets its own bucket however many addresses it calls from) and per client
 * address otherwise; behind a proxy the client address is the one the trusted proxy reports
 * (`CASE_API_TRUST_PROXY`), not the proxy's own. Health checks are not counted. Failed console
 * sign-ins have a strict bucket of their own per client address, so guessing keys is slow.
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

/** Counts only refused sign-ins (4xx), per client address. */
export function signInFailureLimit(failuresPerWindow: number): RequestHandler {
  return rateLimit({
    windowMs: SIGN_IN_WINDOW_MS,
    limit: failuresPerWindow,
    standardHeaders: 'draft-8',
    legacyHeaders: false,
    skipSuccessfulRequests: true,
    keyGenerator: clientBucket,
    handler: (_req, res) =>
      void res.status(429).type('text/plain').send('Too many failed sign-ins from this address; try again later.'),
  });
}
