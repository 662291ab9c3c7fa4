/**
 * Sign-in for the console. Browsers cannot send a bearer header when navigating, so an operator key
 * is exchanged once for a signed session cookie (HttpOnly, SameSite=Strict, Path=/console); every
 * other /console request needs a genuine session whose key (name and hash) is still configured as
 * an operator key and that was not signed out. Sign-in checks the form's Origin (no login CSRF) and
 * refused sign-ins count against a strict bucket per client address (requestLimits.ts). The cookie
 * is `Secure` when the request came over TLS, the proxy's word for it when it is trusted.
 *
 * With `CONSOLE_OIDC_ISSUER` set, operators sign in at the identity provider instead
 * (oidcSignIn.ts), and the key form is not offered: the sessions are then OIDC sessions only.
 * Every session's roles (a key's `+<role>`s, the ID token's roles) are `res.locals.roles`.
 */
import type { NextFunction, Request, RequestHandler, Response, Router } from 'express';
import { findApiKey } from '../apiKeys';
import type { CaseApiConfig } from '../config';
import { page } from './layout';
import { loginBody } from './loginPage';
import { signInFailureLimit } from '../requestLimits';
import { mountOidcSignIn } from './oidcSignIn';
import { RevokedSessions } from './revokedSessions';
import {
  SESSION_COOKIE,
  SESSION_LIFETIME_MS,
  cookieValue,
  createSession,
  csrfToken,
  csrfTokenMatches,
  keyHashDigest,
  readSession,
  type Session,
} from './session';

type Html = (res: Response, status: number, body: string) => void;

export function mountConsoleSessions(router: Router, config: CaseApiConfig, form: RequestHandler, html: Html): void {
  const secret = config.sessionSecret;
  router.get('/console/login', (_req, res) => html(res, 200, page('Sign in', loginBody(undefined, config.oidc))));
  if (config.oidc) mountOidcSignIn(router, config, config.oidc, html);

  const revoked = new RevokedSessions();
  router.post('/console/login', signInFailureLimit(config.signInFailureLimit ?? 10), form, (req, res) => {
    if (config.oidc)
      return html(res, 403, page('Sign in', loginBody('Sign in at the identity provider.', config.oidc)));
    if (!sameOrigin(req))
      return html(res, 403, page('Sign in', loginBody('Refused: the sign-in form did not come from this console.')));
    const key = typeof req.body?.key === 'string' ? req.body.key.trim() : '';
    const entry = key ? findApiKey(config.keys, key) : null;
    if (!entry) return html(res, 401, page('Sign in', loginBody('That key is not known.')));
    if (entry.role !== 'operator')
      return html(
        res,
        403,
        page('Sign in', loginBody(`That key has the ${entry.role} role; the console needs an operator key.`)),
      );
    const { cookieValue: value } = createSession(secret, entry);
    res.cookie(SESSION_COOKIE, value, {
      httpOnly: true,
      sameSite: 'strict',
      secure: req.secure,
      path: '/console',
      maxAge: SESSION_LIFETIME_MS,
    });
    res.redirect(303, '/console');
  });

  /**
   * The session and its roles, if its cookie is genuine and not signed out, and: an OIDC session
   * while OIDC is configured; else a key session whose key (name and hash) is still an operator key.
   */
  const sessionOf = (req: Request): { session: Session; roles: string[] } | null => {
    const session = readSession(secret, cookieValue(req.headers.cookie, SESSION_COOKIE));
    if (!session || revoked.has(session)) return null;
    if (config.oidc) return session.kind === 'oidc' ? { session, roles: session.roles } : null;
    if (session.kind !== 'key') return null;
    const key = config.keys.find(
      (k) => k.name === session.key && k.role === 'operator' && keyHashDigest(secret, k.hash) === session.kh,
    );
    return key ? { session, roles: key.roles ?? [] } : null;
  };

  router.use('/console', (req: Request, res: Response, next: NextFunction) => {
    const found = sessionOf(req);
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

  router.post('/console/logout', form, (req, res) => {
    if (!sameOrigin(req) || !csrfTokenMatches(secret, res.locals.session, req.body?.csrf))
      return html(res, 403, page('Refused', '<p>Refused: the form did not come from this console.</p>'));
    revoked.add(res.locals.session);
    res.clearCookie(SESSION_COOKIE, { path: '/console' });
    res.redirect(303, '/console/login');
  });
}

/** Browsers send Origin on POST; when present it must be this host (SameSite=Strict covers the rest). */
export function sameOrigin(req: Request): boolean {
  const origin = req.headers.origin;
  if (!origin) return true;
  try {
    return new URL(origin).host === req.headers.host;
  } catch {
    return false;
  }
}
