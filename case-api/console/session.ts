/**
 * The operator console's session: a cookie holding `<payload>.<HMAC-SHA256>` (base64url), signed
 * with the session secret, so the server keeps no session state (N API processes share the
 * secret). The payload names the API key that logged in (by its configured name and a digest of
 * its hash, so a key rotated under the same name ends the sessions of the old one) and when the
 * session ends; each session has a random id from which its CSRF token is derived.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';

export const SESSION_COOKIE = 'vj_console';
export const SESSION_LIFETIME_MS = 8 * 60 * 60 * 1000;

const sessionSchema = z.object({ sid: z.string().min(16), key: z.string().min(1), kh: z.string().min(16), exp: z.number().int() });
export type Session = z.output<typeof sessionSchema>;

const mac = (secret: string, text: string) => createHmac('sha256', secret).update(text).digest('base64url');

/** Names one key's hash without revealing it (the cookie is only signed, not encrypted). */
export const keyHashDigest = (secret: string, keyHash: Buffer) => mac(secret, `key:${keyHash.toString('hex')}`).slice(0, 22);

export function createSession(secret: string, key: { name: string; hash: Buffer }, now = Date.now()): { session: Session; cookieValue: string } {
  const session: Session = { sid: randomBytes(18).toString('base64url'), key: key.name, kh: keyHashDigest(secret, key.hash), exp: now + SESSION_LIFETIME_MS };
  const payload = Buffer.from(JSON.stringify(session)).toString('base64url');
  return { session, cookieValue: `${payload}.${mac(secret, payload)}` };
}

/** The session a cookie value holds, or null when it is forged, malformed or expired. */
export function readSession(secret: string, cookieValue: string | undefined, now = Date.now()): Session | null {
  const [payload, signature, extra] = (cookieValue ?? '').split('.');
  if (!payload || !signature || extra !== undefined) return null;
  const expected = Buffer.from(mac(secret, payload));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
  try {
    const parsed = sessionSchema.safeParse(JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')));
    return parsed.success && parsed.data.exp > now ? parsed.data : null;
  } catch {
    return null;
  }
}

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
