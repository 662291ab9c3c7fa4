/**
 * No string the API takes may hold U+0000 (NUL). PostgreSQL's text and jsonb cannot store it, and
 * the case file keeps what requests carry (an operator's reason in the audit trail, the names a
 * case is searched by): a NUL that got past the API failed there, a 500. So it is refused at the
 * door, by name, and the document says so: every string a request may carry is documented with
 * a pattern that excludes it (unless its own pattern already does).
 */
import { HttpError } from './httpError';

type JsonSchema = Record<string, unknown>;

export const NUL_FREE_PATTERN = '^[^\\u0000]*$';

/** Whitespace as String.prototype.trim() removes it (ECMAScript's WhiteSpace and LineTerminator). */
const TRIMMED = '\\t\\n\\u000b\\f\\r \\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff';

/**
 * The pattern of a text field read with `.trim().min(1)` (a reason, a choice): NUL-free, with
 * something left once trimmed, so that a generator reading the document never takes "   " for valid.
 */
export const NUL_FREE_TEXT_PATTERN = `^[^\\u0000]*[^\\u0000${TRIMMED}][^\\u0000]*$`;

/** Refuses a request whose path, query or body (as parsed) holds a NUL in a value, naming where. */
export function refuseNul(parts: Record<string, unknown>): void {
  for (const [where, value] of Object.entries(parts)) {
    const at = nulAt(value);
    if (at !== null)
      throw new HttpError(
        400,
        'invalid_request',
        `Invalid ${where}: ${at || 'the value'} holds a NUL character (U+0000), which the API does not take`,
      );
  }
}

/** The dotted path of the first string holding a NUL, '' for the value itself, or null. */
function nulAt(value: unknown, path = ''): string | null {
  if (typeof value === 'string') return value.includes('\u0000') ? path : null;
  if (typeof value !== 'object' || value === null) return null;
  for (const [key, inner] of Object.entries(value)) {
    const here = path ? `${path}.${key}` : key;
    const found = nulAt(inner, here);
    if (found !== null) return found;
  }
  return null;
}

/** The request schema with the NUL-free pattern on every string schema that has no pattern, enum or const. */
export function documentNoNul(schema: JsonSchema): JsonSchema {
  return walk(schema) as JsonSchema;
}

function walk(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(walk);
  if (typeof node !== 'object' || node === null) return node;
  const copy = Object.fromEntries(Object.entries(node).map(([key, inner]) => [key, walk(inner)])) as JsonSchema;
  const types = Array.isArray(copy.type) ? copy.type : [copy.type];
  if (types.includes('string') && !('pattern' in copy) && !('enum' in copy) && !('const' in copy))
    copy.pattern = NUL_FREE_PATTERN;
  return copy;
}
