/**
 * Sign-in with an operator API key (when OpenID Connect is not configured): the form's key, and
 * optionally the operator's name (the key's configured name), exchanged for a session cookie. The
 * Origin is checked (no login CSRF), and refused sign-ins count against strict buckets
 * (requestLimits.ts): per client address and operator name, and per operator name from anywhere.
 * A key alone counts per client address: behind a proxy that is not trusted, where every client has
 * the proxy's address, operators who give their name are not locked out by another client's
 * failures.
 */
import type { Request, RequestHandler, Response, Router } from 'express';
import { z } from 'zod';
import { findApiKey, type ApiKeyEntry } from '../apiKeys';
import type { CaseApiConfig } from '../config';
import { signInFailureLimits } from '../requestLimits';
import { page } from './layout';
import { loginBody } from './loginPage';
import { SESSION_COOKIE, SESSION_LIFETIME_MS, createSession } from './session';

type Html = (res: Response, status: number, body: string) => void;

const signInFormSchema = z.object({
  key: z.string().trim().max(512).catch(''),
  /** The operator's name: a key's configured name, or nothing. */
  name: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9._-]{1,64}$/)
    .optional()
    .catch(undefined),
});
type SignInForm = z.infer<typeof signInFormSchema>;

const formOf = (req: Request): SignInForm => signInFormSchema.parse(req.body ?? {});

export function mountKeySignIn(router: Router, config: CaseApiConfig, form: RequestHandler, html: Html): void {
  const names = new Set(config.keys.map((k) => k.name));
  // A name no key has counts as no name: it cannot sign in, and buys no bucket of its own.
  const nameOf = (req: Request) => {
    const { name } = formOf(req);
    return name !== undefined && names.has(name) ? name : undefined;
  };
  const limits = signInFailureLimits(config.signInFailureLimit ?? 10, nameOf);
  const refuse = (res: Response, status: number, text: string) =>
    html(res, status, page('Sign in', loginBody(text, config.oidc)));

  router.post('/console/login', form, ...limits, (req, res) => {
    if (config.oidc) return refuse(res, 403, 'Sign in at the identity provider.');
    if (!sameOrigin(req)) return refuse(res, 403, 'Refused: the sign-in form did not come from this console.');
    const entry = keyEntryOf(config.keys, formOf(req));
    if (!entry) return refuse(res, 401, 'That key is not known.');
    if (entry.role !== 'operator')
      return refuse(res, 403, `That key has the ${entry.role} role; the console needs an operator key.`);
    const { cookieValue } = createSession(config.sessionSecret, entry);
    res.cookie(SESSION_COOKIE, cookieValue, {
      httpOnly: true,
      sameSite: 'strict',
      secure: req.secure,
      path: '/console',
      maxAge: SESSION_LIFETIME_MS,
    });
    res.redirect(303, '/console');
  });
}

/** The key's entry, when the key is known and, with a name given, is the key of that name. */
function keyEntryOf(keys: readonly ApiKeyEntry[], { key, name }: SignInForm): ApiKeyEntry | null {
  const entry = key ? findApiKey(keys, key) : null;
  if (!entry || (name !== undefined && entry.name !== name)) return null;
  return entry;
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
