/**
 * The operator console's session: a cookie holding `<payload>.<HMAC-SHA256>` (base64url), signed
 * with the session secret, so the server keeps no session state (N API processes share the
 * secret). The payload names the API key that logged in (by its configured name and a digest of
 * its hash, so a key rotated under the same name ends the sessions of the old one) and when the
 * session ends; each session has a random id from which its CSRF token is derived. An OpenID
 * Connect session (kind `oidc`, oidcSignIn.ts) identifies the operator by the ID token's issuer and
 * subject (what audits and assignments record), carries the name shown for them and their roles as
 * the ID token gave them, and has no key.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';

export const SESSION_COOKIE = 'vj_console';
export const SESSION_LIFETIME_MS = 8 * 60 * 60 * 1000;

const sessionSchema = z.object({
  sid: z.string().min(16),
  kind: z.enum(['key', 'oidc']).default('key'),
  /**
   * Who the operator is, as audits and assignments record them: the key's configured name, or the
   * ID token's `<iss>#<sub>` (oidcIdentity).
   */
  key: z.string().min(1),
  /** The name shown for an OIDC operator (the ID token's name claim); a key session shows `key`. */
  name: z.string().min(1).max(200).optional(),
  /** A key session's key hash digest. */
  kh: z.string().min(16).optional(),
  /** An OIDC session's roles, from the ID token. */
  roles: z.array(z.string()).max(100).default([]),
  exp: z.number().int(),
});
export type Session = z.output<typeof sessionSchema>;

const mac = (secret: string, text: string) => createHmac('sha256', secret).update(text).digest('base64url');

/** Names one key's hash without revealing it (the cookie is only signed, not encrypted). */
export const keyHashDigest = (secret: string, keyHash: Buffer) =>
  mac(secret, `key:${keyHash.toString('hex')}`).slice(0, 22);

export function createSession(
  secret: string,
  key: { name: string; hash: Buffer },
  now = Date.now(),
): { session: Session; cookieValue: string } {
  return signed(secret, {
    sid: randomBytes(18).toString('base64url'),
    kind: 'key',
    key: key.name,
    kh: keyHashDigest(secret, key.hash),
    roles: [],
    exp: now + SESSION_LIFETIME_MS,
  });
}

/**
 * An OIDC operator's identity: the issuer and the subject, which together name one account that
 * the identity provider never reassigns (a name claim may be shared, and its owner may edit it).
 */
export const oidcIdentity = (issuer: string, subject: string) => `${issuer}#${subject}`;

/** A session for an operator the identity provider signed in (by the ID token's issuer and subject). */
export function createOidcSession(
  secret: string,
  operator: { identity: string; name: string; roles: string[] },
  now = Date.now(),
): { session: Session; cookieValue: string } {
  return signed(secret, {
    sid: randomBytes(18).toString('base64url'),
    kind: 'oidc',
    key: operator.identity,
    name: operator.name,
    roles: operator.roles,
    exp: now + SESSION_LIFETIME_MS,
  });
}

function signed(secret: string, session: Session): { session: Session; cookieValue: string } {
  return { session, cookieValue: signValue(secret, session) };
}

/** `<base64url JSON>.<HMAC>`: what the session cookie and the sign-in flow's cookie hold. */
export function signValue(secret: string, value: unknown): string {
  const payload = Buffer.from(JSON.stringify(value)).toString('base64url');
  return `${payload}.${mac(secret, payload)}`;
}

/** The JSON a signed value holds, or null when it is forged or malformed. */
export function readSignedValue(secret: string, cookieValue: string | undefined): unknown {
  const [payload, signature, extra] = (cookieValue ?? '').split('.');
  if (!payload || !signature || extra !== undefined) return null;
  const expected = Buffer.from(mac(secret, payload));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
  try {
    return JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    return null;
  }
}

/** The session a cookie value holds, or null when it is forged, malformed or expired. */
export function readSession(secret: string, cookieValue: string | undefined, now = Date.now()): Session | null {
  const parsed = sessionSchema.safeParse(readSignedValue(secret, cookieValue));
  return parsed.success && parsed.data.exp > now ? parsed.data : null;
}

/** The name the console shows for the signed-in operator. */
export const shownName = (session: Session) => session.name ?? session.key;

/** The CSRF token of a session: put in every form, checked on every action. */
export const csrfToken = (secret: string, session: Session) => mac(secret, `csrf:${session.sid}`);

export function csrfTokenMatches(secret: string, session: Session, given: unknown): boolean {
  const expected = Buffer.from(csrfToken(secret, session));
  const actual = Buffer.from(typeof given === 'string' ? given : '');
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}

export function cookieValue(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const [k, ...v] = part.trim().split('=');
    if (k === name) return v.join('=');
  }
  return undefined;
}
