/**
 * Sessions of the console. Browsers cannot send a bearer header when navigating, so an operator
 * signs in once (with a key, keySignIn.ts; or at the identity provider, oidcSignIn.ts) for a signed
 * session cookie (HttpOnly, SameSite=Strict, Path=/console); every other /console request needs a
 * genuine session that was not signed out and, for a key session, whose key (name and hash) is
 * still configured as an operator key. Signed-out sessions are remembered in the case file
 * (revokedSessions.ts). The cookie is `Secure` when the request came over TLS, the proxy's word for
 * it when it is trusted.
 *
 * With `CONSOLE_OIDC_ISSUER` set, operators sign in at the identity provider instead, and the key
 * form is not offered: the sessions are then OIDC sessions only. Every session's roles (a key's
 * `+<role>`s, the ID token's roles) are `res.locals.roles`.
 */
import type { Pool } from 'pg';
import type { NextFunction, Request, RequestHandler, Response, Router } from 'express';
import type { CaseApiConfig } from '../config';
import { page } from './layout';
import { loginBody } from './loginPage';
import { mountKeySignIn, sameOrigin } from './keySignIn';
import { mountOidcSignIn } from './oidcSignIn';
import { RevokedSessions } from './revokedSessions';
import {
  SESSION_COOKIE,
  cookieValue,
  csrfToken,
  csrfTokenMatches,
  keyHashDigest,
  readSession,
  type Session,
} from './session';

export { sameOrigin } from './keySignIn';

type Html = (res: Response, status: number, body: string) => void;

export function mountConsoleSessions(
  router: Router,
  config: CaseApiConfig,
  form: RequestHandler,
  html: Html,
  caseFile?: Pool,
): void {
  const secret = config.sessionSecret;
  router.get('/console/login', (_req, res) => html(res, 200, page('Sign in', loginBody(undefined, config.oidc))));
  if (config.oidc) mountOidcSignIn(router, config, config.oidc, html, caseFile);
  mountKeySignIn(router, config, form, html);
  const revoked = new RevokedSessions(caseFile);

  /**
   * The session and its roles, if its cookie is genuine and not signed out, and: an OIDC session
   * while OIDC is configured; else a key session whose key (name and hash) is still an operator key.
   */
  const sessionOf = async (req: Request): Promise<{ session: Session; roles: string[] } | null> => {
    const session = readSession(secret, cookieValue(req.headers.cookie, SESSION_COOKIE));
    if (!session || (await revoked.has(session))) return null;
    // An OIDC session without a shown name was opened before operators were identified by issuer
    // and subject: it names the operator by display name alone, so it is ended.
    if (config.oidc) return session.kind === 'oidc' && session.name ? { session, roles: session.roles } : null;
    if (session.kind !== 'key') return null;
    const key = config.keys.find(
      (k) => k.name === session.key && k.role === 'operator' && keyHashDigest(secret, k.hash) === session.kh,
    );
    return key ? { session, roles: key.roles ?? [] } : null;
  };

  // Express 5 passes a rejected promise (the case file unreachable) to the error handler: refused.
  router.use('/console', async (req: Request, res: Response, next: NextFunction) => {
    const found = await sessionOf(req);
    if (!found) {
      if (req.method === 'GET') return res.redirect(303, '/console/login');
      return html(res, 401, page('Sign in', loginBody('Your session has ended; sign in again.', config.oidc)));
    }
    const { session, roles } = found;
    res.locals.session = session;
    res.locals.roles = roles;
    res.locals.csrf = csrfToken(secret, session);
    next();
  });

  router.post('/console/logout', form, async (req, res) => {
    if (!sameOrigin(req) || !csrfTokenMatches(secret, res.locals.session, req.body?.csrf))
      return html(res, 403, page('Refused', '<p>Refused: the form did not come from this console.</p>'));
    await revoked.add(res.locals.session);
    res.clearCookie(SESSION_COOKIE, { path: '/console' });
    res.redirect(303, '/console/login');
  });
}
