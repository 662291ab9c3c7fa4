/**
 * The OAuth token issuer (spec §4.1, §5): client credentials, 1-hour tokens (lifetime configurable
 * for tests), and the "Invalid authorization" answer for any API call without a valid token.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import express, { type NextFunction, type Request, type Response, type Router } from 'express';
import { invalidAuthorizationError, tokenRequestFormSchema, tokenScope } from '../provider';
import type { SimulatorStore } from './store';

export interface ClientSecret {
  value: string;
  /** §5.5: two years after issuance by default. */
  expiresAt: number;
}

export interface ClientApplication {
  clientId: string;
  /** Up to two live secrets (§5.5). */
  secrets: ClientSecret[];
}

export const CLIENT_SECRET_LIFETIME_MS = 2 * 365 * 24 * 60 * 60 * 1000;

export interface TokenIssuerOptions {
  application: ClientApplication;
  baseUrl: () => string;
  tokenLifetimeSeconds: number;
  now?: () => number;
}

export interface TokenIssuer {
  router: Router;
  requireToken: (req: Request, res: Response, next: NextFunction) => void;
  /** Forgets every issued token (a test revokes them all at once). */
  revokeAll(): void;
}

function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a, 'utf8');
  const y = Buffer.from(b, 'utf8');
  return x.length === y.length && timingSafeEqual(x, y);
}

export function createTokenIssuer(store: SimulatorStore, options: TokenIssuerOptions): TokenIssuer {
  const now = options.now ?? Date.now;
  const tokens = new Map<string, { clientId: string; expiresAt: number }>();
  const router = express.Router();

  router.post('/token', express.urlencoded({ extended: false, limit: '16kb' }), (req, res) => {
    store.stats.tokenRequests++;
    if (!req.is('application/x-www-form-urlencoded')) {
      res.status(400).json({
        error: 'invalid_request',
        error_description: 'Content-Type must be application/x-www-form-urlencoded',
      });
      return;
    }
    const form = tokenRequestFormSchema.safeParse(req.body);
    if (!form.success) {
      res.status(400).json({
        error: 'invalid_request',
        error_description:
          'grant_type, scope, client_id and client_secret are required; grant_type must be client_credentials',
      });
      return;
    }
    const { application } = options;
    const known =
      form.data.client_id === application.clientId &&
      application.secrets.some((s) => s.expiresAt > now() && sameSecret(s.value, form.data.client_secret));
    if (!known) {
      res.status(401).json({ error: 'invalid_client', error_description: 'Unknown client or wrong client secret' });
      return;
    }
    if (form.data.scope !== tokenScope(options.baseUrl())) {
      res
        .status(400)
        .json({ error: 'invalid_scope', error_description: `scope must be ${tokenScope(options.baseUrl())}` });
      return;
    }
    const accessToken = randomBytes(32).toString('base64url');
    tokens.set(accessToken, { clientId: form.data.client_id, expiresAt: now() + options.tokenLifetimeSeconds * 1000 });
    store.stats.tokensIssued++;
    res.json({ access_token: accessToken, token_type: 'Bearer', expires_in: options.tokenLifetimeSeconds });
  });

  const requireToken = (req: Request, res: Response, next: NextFunction): void => {
    const header = req.headers.authorization ?? '';
    // The auth scheme is case-insensitive (RFC 9110 §11.1): `bearer x` and `BEARER x` are Bearer too.
    const match = /^Bearer +(\S+) *$/i.exec(header);
    const token = match ? tokens.get(match[1] as string) : undefined;
    if (!token || token.expiresAt <= now()) {
      res.setHeader('WWW-Authenticate', 'Bearer error="invalid_token"');
      res.status(401).json({ error: invalidAuthorizationError, message: 'Invalid authorization' });
      return;
    }
    store.stats.apiCalls++;
    // The idempotency keys of one client are its own (simulator/idempotency.ts).
    res.locals.clientId = token.clientId;
    next();
  };

  return { router, requireToken, revokeAll: () => tokens.clear() };
}
