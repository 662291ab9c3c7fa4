/**
 * Document status (spec §3): `Complete` or `Failed`, but the spec's text also says `Success` for a
 * successful extraction. A refused status word would strand the step until its deadline, so
 * words are mapped by one rule, case-insensitively: complete, completed, success, successful,
 * succeeded → `Complete`; failed, failure, fail, error → `Failed`. Any other word is refused.
 *
 * Apart from the schemas (eventData.ts) because workflows apply the same rule to the data the
 * bridge forwards (validated, but as sent) and must not import zod.
 */
export type DocumentStatus = 'Complete' | 'Failed';

export const documentStatusWords: Readonly<Record<string, DocumentStatus>> = {
  complete: 'Complete',
  completed: 'Complete',
  success: 'Complete',
  successful: 'Complete',
  succeeded: 'Complete',
  failed: 'Failed',
  failure: 'Failed',
  fail: 'Failed',
  error: 'Failed',
};

/** The status a word stands for, or undefined for a word the rule does not know. */
export function documentStatusOf(word: string): DocumentStatus | undefined {
  const key = word.trim().toLowerCase();
  return Object.hasOwn(documentStatusWords, key) ? documentStatusWords[key] : undefined;
}
