/**
 * The list's page tokens as the API hands them out: Temporal's own token behind a short digest of
 * it. Temporal does not check a token it is given: bytes it never issued kept a list call busy for
 * about 20 s before it failed (a 500, issue 23). A token whose digest does not match is refused at
 * once with a 400; only a token some API process answered reaches Temporal. A digest, not a MAC:
 * every API process of a deployment reads every other's tokens with no shared secret, and what a
 * token guards against is a mistake, not an attacker (the list is already the caller's to read).
 */
import { createHash } from 'node:crypto';
import { HttpError } from './httpError';

const DIGEST_BYTES = 6;

const digestOf = (inner: Buffer) => createHash('sha256').update(inner).digest().subarray(0, DIGEST_BYTES);

/** Temporal's token (base64url, as the client answers it) → the API's. */
export function sealPageToken(temporalToken: string): string {
  const inner = Buffer.from(temporalToken, 'base64url');
  return Buffer.concat([digestOf(inner), inner]).toString('base64url');
}

/** The API's token → Temporal's; a token the API did not answer is a 400. */
export function openPageToken(token: string): string {
  const bytes = Buffer.from(token, 'base64url');
  const inner = bytes.subarray(DIGEST_BYTES);
  if (inner.length === 0 || !digestOf(inner).equals(bytes.subarray(0, DIGEST_BYTES))) {
    throw new HttpError(400, 'invalid_page_token', 'pageToken is not a nextPageToken this API answered: start again without it');
  }
  return inner.toString('base64url');
}
