/**
 * Checks a delivery's signature against the secret ring. With the secret read from the provider,
 * a mismatch reads the secret again (a rotation at the provider) and checks once more; and while
 * no secret is known yet, or the provider fails to answer that read, a signed delivery is
 * `pending`: it is kept and checked later, never refused only because the provider was slow.
 */
import type { SecretRing } from './secretRing';
import { signatureWellFormed, verifySignature, type SignatureVerdict } from './verifySignature';

export type SignatureCheck = SignatureVerdict | { ok: false; reason: 'pending' };

export async function checkSignature(
  ring: SecretRing,
  raw: Buffer,
  header: string | null,
  required: boolean,
  onRefreshError: (error: unknown) => void,
): Promise<SignatureCheck> {
  // Held only when the header could be a signature at all: anything else is refused at once.
  if (!ring.known && header)
    return signatureWellFormed(header) ? { ok: false, reason: 'pending' } : { ok: false, reason: 'malformed' };
  const first = verifySignature(raw, header ?? undefined, ring.secrets(), required);
  if (!ring.fromProvider || (first.ok && first.signed) || !header) return first;
  // A signature we cannot match: the provider may have created or rotated its secret since.
  const noSecret = ring.secrets().length === 0;
  if (!noSecret && (first.ok || first.reason !== 'mismatch')) return first;
  let changed: boolean;
  try {
    changed = await ring.refresh();
  } catch (error) {
    onRefreshError(error);
    changed = false;
  }
  // The provider did not answer (now, or at the last read, which rate-limits this one): the
  // delivery may be signed with a secret we could not read yet. Kept, verified later.
  if (!changed && ring.readFailing) return { ok: false, reason: 'pending' };
  // Checked again even when this call changed nothing: a read that ended after our first check
  // (started by another delivery) may have brought the secret this one is signed with.
  const again = verifySignature(raw, header, ring.secrets(), required);
  if (!changed && !again.ok) return noSecret ? { ok: false, reason: 'mismatch' } : first;
  return again;
}

/** For a kept delivery: verified, tampered (dropped), or still waiting for a secret. */
export async function checkHeldSignature(
  ring: SecretRing,
  raw: Buffer,
  header: string,
  onRefreshError: (error: unknown) => void,
): Promise<'verified' | 'tampered' | 'pending'> {
  const check = await checkSignature(ring, raw, header, true, onRefreshError);
  if (check.ok) return 'verified';
  return check.reason === 'pending' ? 'pending' : 'tampered';
}
