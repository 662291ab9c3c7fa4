/**
 * Webhook signatures (spec §6.3): Base64 HMAC-SHA256 of the exact raw bytes, keyed
 * with the secret as UTF-8, compared in constant time; the current secret first, then the previous
 * one while a rotation's grace period lasts.
 */
import { createHmac, createSecretKey, timingSafeEqual, type KeyObject } from 'node:crypto';

export const SIGNATURE_HEADER = 'x-hmac-sha256-signature';
const SHA256_BYTES = 32;
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

export type SignatureVerdict =
  | { ok: true; signed: true; secretIndex: number }
  | { ok: true; signed: false }
  | { ok: false; reason: 'missing' | 'malformed' | 'mismatch' };

/**
 * The HMAC key of each secret, imported once: importing it for every delivery was half the cost
 * of a verification (about 4 of 9 µs). A ring holds two secrets at most; the bound only keeps a
 * long-lived process that rotates often from growing.
 */
const hmacKeys = new Map<string, KeyObject>();
function hmacKey(secret: string): KeyObject {
  let key = hmacKeys.get(secret);
  if (key) return key;
  if (hmacKeys.size >= 8) hmacKeys.clear();
  key = createSecretKey(Buffer.from(secret, 'utf8'));
  hmacKeys.set(secret, key);
  return key;
}

/** Whether a header could be a signature: Base64 of exactly 32 bytes (no secret needed to tell). */
export function signatureWellFormed(header: string): boolean {
  const value = header.trim();
  return value.length % 4 === 0 && BASE64.test(value) && Buffer.from(value, 'base64').length === SHA256_BYTES;
}

export function signBody(body: Buffer | string, secret: string): string {
  return createHmac('sha256', Buffer.from(secret, 'utf8')).update(body).digest('base64');
}

/**
 * With no secrets configured, deliveries are unsigned by design (§6.3.4) unless `required`.
 * `secrets` are tried in order; the index of the one that matched is returned.
 */
export function verifySignature(
  rawBody: Buffer,
  header: string | undefined,
  secrets: readonly string[],
  required = false,
): SignatureVerdict {
  if (secrets.length === 0) return required ? { ok: false, reason: 'missing' } : { ok: true, signed: false };
  if (header === undefined || header === '') return { ok: false, reason: 'missing' };
  const value = header.trim();
  if (value.length % 4 !== 0 || !BASE64.test(value)) return { ok: false, reason: 'malformed' };
  const received = Buffer.from(value, 'base64');
  if (received.length !== SHA256_BYTES) return { ok: false, reason: 'malformed' };
  for (const [secretIndex, secret] of secrets.entries()) {
    const expected = createHmac('sha256', hmacKey(secret)).update(rawBody).digest();
    if (timingSafeEqual(expected, received)) return { ok: true, signed: true, secretIndex };
  }
  return { ok: false, reason: 'mismatch' };
}
