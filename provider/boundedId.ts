/**
 * Bounds ids built from payload fields: Temporal refuses a workflow id over its
 * length limit, and a refusal no retry can cure must never reach the server. Short ids are kept
 * as they are; a long one keeps a readable head and replaces the tail with a hash of the whole.
 * Pure (no Node built-ins): workflows and the bridge compute the same id.
 */

/** Longest id part kept verbatim; the provider's ids are GUIDs (36 characters). */
export const MAX_ID_PART = 200;
/** Length of the hash suffix, `~` included. */
const SUFFIX = 33;

/**
 * FNV-1a over UTF-16 code units, 64 bits, with two offset bases for 128 bits. Not cryptographic:
 * the ids come from verified deliveries; the hash only has to keep distinct long ids apart.
 */
function fnv1a64(text: string, offset: bigint): string {
  const prime = 0x100000001b3n;
  const mask = 0xffffffffffffffffn;
  let hash = offset;
  for (let i = 0; i < text.length; i++) {
    hash ^= BigInt(text.charCodeAt(i));
    hash = (hash * prime) & mask;
  }
  return hash.toString(16).padStart(16, '0');
}

export function hashText(text: string): string {
  return fnv1a64(text, 0xcbf29ce484222325n) + fnv1a64(text, 0x84222325cbf29ce4n);
}

/** `id` itself when at most `max` characters, else its head, `~` and a hash of all of it (`max` long). */
export function boundedId(id: string, max: number = MAX_ID_PART): string {
  if (id.length <= max) return id;
  return `${id.slice(0, Math.max(0, max - SUFFIX))}~${hashText(id)}`;
}
