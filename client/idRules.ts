/**
 * The rules every id a case is started or operated with must meet, as plain checks: the zod
 * schemas at the boundary (idSchemas.ts) and the journey's own check of an input that skipped them
 * (workflows/journeyInputCheck.ts, where no zod runs) apply the same ones.
 *
 * Bounds: the longest workflow id built from ids, `case/<caseId>/identity-verification/<personId>/<n>`
 * (and the purchase keys that extend it, client/purchaseKey.ts), stays under half of Temporal's
 * default limit of 1,000 bytes with two 200-character ASCII ids. A provider id holds no `/` (one
 * step key would read as another: `identity-verification/a/2`) and starts with a letter or digit
 * (`.` or `..` as a segment of the provider's URL paths would climb out of them).
 */

/** The longest id of each kind, in characters (ASCII: as many bytes). */
export const ID_MAX_LENGTH = 200;

/** An id the provider made (a case, a person, a company): letters, digits and `. _ : -`. */
export const PROVIDER_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._:-]*$/;
export const PROVIDER_ID_CHARACTERS = 'letters, digits and . _ : -, starting with a letter or digit';

/** An id made elsewhere (the lender's reference, a credit bureau's): printable ASCII, no space at either end. */
export const OTHER_ID_PATTERN = /^[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?$/;
export const OTHER_ID_CHARACTERS = 'printable ASCII, not empty, not starting or ending with a space';

/**
 * Characters no name may hold, as ranges of UTF-16 code units: control characters (C0, DEL, C1)
 * and the Unicode bidi controls, which make a line read other than it is.
 */
const UNSAFE_RANGES: readonly (readonly [number, number])[] = [
  [0x00, 0x1f],
  [0x7f, 0x9f],
  [0x061c, 0x061c],
  [0x200e, 0x200f],
  [0x202a, 0x202e],
  [0x2066, 0x2069],
];
export const UNSAFE_TEXT_WORDS =
  'control characters or bidi controls (U+061C, U+200E, U+200F, U+202A–U+202E, U+2066–U+2069)';

/** Whether `text` holds a character no name may hold. */
export function hasUnsafeCharacter(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (UNSAFE_RANGES.some(([low, high]) => unit >= low && unit <= high)) return true;
  }
  return false;
}

const escaped = (unit: number) => `\\u${unit.toString(16).padStart(4, '0')}`;

/** The unsafe characters as the body of a regular expression's character class (`\u0000-\u001f…`). */
export const UNSAFE_TEXT_CLASS = UNSAFE_RANGES.map(([low, high]) =>
  low === high ? escaped(low) : `${escaped(low)}-${escaped(high)}`,
).join('');

/** The kinds of id: each with its characters. */
export const idKinds = {
  provider: { pattern: PROVIDER_ID_PATTERN, characters: PROVIDER_ID_CHARACTERS },
  other: { pattern: OTHER_ID_PATTERN, characters: OTHER_ID_CHARACTERS },
} as const;
export type IdKind = keyof typeof idKinds;

/** What is wrong with `value` as an id of `kind` (the limit and the characters), or undefined. */
export function idProblem(value: unknown, kind: IdKind): string | undefined {
  const { pattern, characters } = idKinds[kind];
  const rule = `must be at most ${ID_MAX_LENGTH} characters: ${characters}`;
  if (typeof value !== 'string') return `${rule} (it is not a string)`;
  if (value.length > ID_MAX_LENGTH) return `${rule}; it is ${value.length} characters long`;
  if (!pattern.test(value)) return `${rule}; it is empty or holds another character`;
  return undefined;
}
