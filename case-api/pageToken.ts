/**
 * The list's page tokens as the API hands them out: the list's own token (the read model's cursor;
 * Temporal's, when the list read visibility) behind a short digest of it. Temporal did not check a
 * token it was given: bytes it never issued kept a list call busy for about 20 s before it failed
 * with a 500. A token whose digest does not match is refused at once with a 400; only a
 * token some API process answered reaches the store behind the list. A digest, not a MAC:
 * every API process of a deployment reads every other's tokens with no shared secret, and what a
 * token guards against is a mistake, not an attacker (the list is already the caller's to read).
 */
import { createHash } from 'node:crypto';
import { HttpError } from './httpError';

const DIGEST_BYTES = 6;

const digestOf = (inner: Buffer) => createHash('sha256').update(inner).digest().subarray(0, DIGEST_BYTES);

/** The list's token (base64url, as the client answers it) → the API's. */
export function sealPageToken(listToken: string): string {
  const inner = Buffer.from(listToken, 'base64url');
  return Buffer.concat([digestOf(inner), inner]).toString('base64url');
}

/** The API's token → the list's; a token the API did not answer is a 400. */
export function openPageToken(token: string): string {
  const bytes = Buffer.from(token, 'base64url');
  const inner = bytes.subarray(DIGEST_BYTES);
  if (inner.length === 0 || !digestOf(inner).equals(bytes.subarray(0, DIGEST_BYTES))) {
    throw new HttpError(
      400,
      'invalid_page_token',
      'pageToken is not a nextPageToken this API answered: start again without it',
    );
  }
  return inner.toString('base64url');
}
