/**
 * Console sign-in with OpenID Connect (when `CONSOLE_OIDC_ISSUER` is set; oidcConfig.ts), with
 * openid-client: the authorization code flow with PKCE (S256), a state and a nonce.
 *
 * - `GET /console/oidc/start` keeps the verifier, state and nonce in a short-lived (10 minutes)
 *   signed cookie, HttpOnly, SameSite=Lax (the identity provider's redirect back is a top-level
 *   navigation from another site: Lax sends it, Strict would not), Path=/console/oidc, and sends
 *   the browser to the issuer.
 * - `GET /console/oidc/callback` checks the answer against that cookie (openid-client checks the
 *   state, the PKCE code exchange, the ID token's signature, issuer, audience, expiry and nonce),
 *   and opens a console session for the ID token's issuer and subject (`<iss>#<sub>`: what audits
 *   and assignments record, unique and never reassigned), shown by its name
 *   (`CONSOLE_OIDC_NAME_CLAIM`, else preferred_username, else sub; kept in the case file so that the
 *   console shows audits and owners by name), with its roles (`CONSOLE_OIDC_ROLES_CLAIM`). It answers a page
 *   that navigates to /console rather than a redirect: a redirect would still be part of the
 *   navigation that came from the issuer's site, and the SameSite=Strict session cookie would not
 *   be sent with it.
 *
 * The issuer's metadata is discovered at the first sign-in and kept (discovered again after a
 * failure), so the API starts while the identity provider is unreachable.
 */
import type { Request, Response, Router } from 'express';
import type { Pool } from 'pg';
import type * as OpenIdClient from 'openid-client';
import { z } from 'zod';
import { recordOperatorName } from '../../case-file/consoleOperators';
import type { CaseApiConfig } from '../config';
import { importEsm } from '../esmImport';
import { page } from './layout';
import { loginBody } from './loginPage';
import type { OidcConfig } from './oidcConfig';
import {
  SESSION_COOKIE,
  SESSION_LIFETIME_MS,
  cookieValue,
  createOidcSession,
  oidcIdentity,
  readSignedValue,
  signValue,
} from './session';

type Html = (res: Response, status: number, body: string) => void;
type Client = typeof OpenIdClient;

const FLOW_COOKIE = 'vj_oidc_flow';
const FLOW_PATH = '/console/oidc';
const FLOW_LIFETIME_MS = 10 * 60 * 1000;
const flowSchema = z.object({
  purpose: z.literal('oidc-flow'),
  state: z.string().min(16),
  nonce: z.string().min(16),
  verifier: z.string().min(43),
  exp: z.number().int(),
});

/** Audits and assignments take an operator of at most this many characters. */
const MAX_IDENTITY_LENGTH = 200;

export function mountOidcSignIn(
  router: Router,
  config: CaseApiConfig,
  oidc: OidcConfig,
  html: Html,
  caseFile?: Pool,
): void {
  const secret = config.sessionSecret;
  const signInPage = (status: number, res: Response, error: string) =>
    html(res, status, page('Sign in', loginBody(error, oidc)));

  let discovered: Promise<{ client: Client; server: OpenIdClient.Configuration }> | undefined;
  const discover = () => {
    const pending = (discovered ??= (async () => {
      const client = await importEsm<Client>('openid-client');
      const server = await client.discovery(
        new URL(oidc.issuer),
        oidc.clientId,
        oidc.clientSecret,
        undefined,
        oidc.allowHttp ? { execute: [client.allowInsecureRequests] } : undefined,
      );
      return { client, server };
    })());
    pending.catch(() => {
      if (discovered === pending) discovered = undefined;
    });
    return pending;
  };

  router.get(`${FLOW_PATH}/start`, async (req: Request, res: Response) => {
    let found: Awaited<ReturnType<typeof discover>>;
    try {
      found = await discover();
    } catch {
      return signInPage(502, res, 'The identity provider could not be reached; try again in a moment.');
    }
    const { client, server } = found;
    const verifier = client.randomPKCECodeVerifier();
    const state = client.randomState();
    const nonce = client.randomNonce();
    const url = client.buildAuthorizationUrl(server, {
      redirect_uri: oidc.redirectUrl,
      scope: oidc.scopes,
      code_challenge: await client.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state,
      nonce,
    });
    const flow: z.infer<typeof flowSchema> = {
      purpose: 'oidc-flow',
      state,
      nonce,
      verifier,
      exp: Date.now() + FLOW_LIFETIME_MS,
    };
    res.cookie(FLOW_COOKIE, signValue(secret, flow), {
      httpOnly: true,
      sameSite: 'lax',
      secure: req.secure,
      path: FLOW_PATH,
      maxAge: FLOW_LIFETIME_MS,
    });
    res.set('Cache-Control', 'no-store').redirect(303, url.href);
  });

  router.get(`${FLOW_PATH}/callback`, async (req: Request, res: Response) => {
    const parsed = flowSchema.safeParse(readSignedValue(secret, cookieValue(req.headers.cookie, FLOW_COOKIE)));
    res.clearCookie(FLOW_COOKIE, { path: FLOW_PATH });
    if (!parsed.success || parsed.data.exp <= Date.now())
      return signInPage(400, res, 'That sign-in did not start here or took too long; sign in again.');
    const flow = parsed.data;
    let claims: Record<string, unknown>;
    try {
      const { client, server } = await discover();
      // The URL the identity provider sent the browser to, as it knows it (the API may sit behind a proxy).
      const current = new URL(oidc.redirectUrl);
      current.search = new URL(req.originalUrl, 'http://callback').search;
      const tokens = await client.authorizationCodeGrant(server, current, {
        pkceCodeVerifier: flow.verifier,
        expectedState: flow.state,
        expectedNonce: flow.nonce,
        idTokenExpected: true,
      });
      claims = (tokens.claims() ?? {}) as Record<string, unknown>;
    } catch (error) {
      const reason = (error as { error?: unknown }).error;
      return signInPage(
        401,
        res,
        `The identity provider did not sign you in` +
          `${typeof reason === 'string' ? ` (${reason.slice(0, 100)})` : ''}; sign in ` +
          `again.`,
      );
    }
    // openid-client checked that the ID token has both, and that `iss` is the configured issuer.
    const identity = oidcIdentity(String(claims.iss), String(claims.sub));
    if (identity.length > MAX_IDENTITY_LENGTH)
      return signInPage(
        401,
        res,
        'The identity provider named you with a subject too long to record; ask an administrator.',
      );
    const name = [claimAt(claims, oidc.nameClaim), claims.preferred_username, claims.sub]
      .find((v): v is string => typeof v === 'string' && v.trim() !== '')!
      .trim()
      .slice(0, 200);
    if (caseFile) await recordOperatorName(caseFile, identity, name);
    const { cookieValue: value } = createOidcSession(secret, {
      identity,
      name,
      roles: rolesOf(claimAt(claims, oidc.rolesClaim)),
    });
    res.cookie(SESSION_COOKIE, value, {
      httpOnly: true,
      sameSite: 'strict',
      secure: req.secure,
      path: '/console',
      maxAge: SESSION_LIFETIME_MS,
    });
    html(
      res,
      200,
      page('Signed in', '<p>Signed in. <a href="/console">Continue to the console</a>.</p>').replace(
        '<head>',
        '<head><meta http-equiv="refresh" content="0;url=/console">',
      ),
    );
  });
}

/** A claim by name, or by a dotted path into nested objects (Keycloak's realm_access.roles). */
function claimAt(claims: Record<string, unknown>, path: string): unknown {
  if (path in claims) return claims[path];
  return path
    .split('.')
    .reduce<unknown>(
      (value, part) => (value && typeof value === 'object' ? (value as Record<string, unknown>)[part] : undefined),
      claims,
    );
}

/** Roles as an array of names, or as space- or comma-separated text; anything else: none. */
function rolesOf(value: unknown): string[] {
  const list = Array.isArray(value) ? value : typeof value === 'string' ? value.split(/[\s,]+/) : [];
  return [
    ...new Set(list.filter((r): r is string => typeof r === 'string' && /^[A-Za-z0-9._:/-]{1,100}$/.test(r))),
  ].slice(0, 100);
}
