/**
 * What a refresh of a closed case's evidence asks for (client/evidenceRefresh.ts), checked the same
 * way by the CLI and the case API; zod only, so the CLI checks its arguments without loading the
 * Temporal SDK.
 */
import { z } from 'zod';
import { evidenceKindNames } from './evidenceValidity';

export const refreshReasonMaxLength = 500;

/** The message of an item that is no evidence kind: it, and the kinds there are. */
export const unknownItemMessage = (item: unknown) =>
  `unknown item ${JSON.stringify(item)}; the items are ${evidenceKindNames.join(', ')}`;

/** The first item named twice, if any. */
export function repeatedItem(items: readonly string[]): string | undefined {
  return items.find((item, i) => items.indexOf(item) !== i);
}

export const evidenceRefreshRequestSchema = z.strictObject({
  items: z
    .array(z.enum(evidenceKindNames, { error: (issue) => unknownItemMessage(issue.input) }))
    .min(1, 'name at least one item')
    .superRefine((items, ctx) => {
      const repeated = repeatedItem(items);
      if (repeated) ctx.addIssue({ code: 'custom', message: `names ${repeated} twice: name each item once` });
    })
    .meta({
      uniqueItems: true,
      description:
        'The evidence to renew, each once: creditReport, identityVerification (every person), ' +
        'bankTransactions (the banking step; affordability, which is computed from it, is renewed with it), ' +
        'affordability, incomeEmployer',
    }),
  reason: z
    .string({ error: (issue) => (issue.input === undefined ? 'is required: why the evidence is renewed' : undefined) })
    .trim()
    .min(1, 'must not be empty: it is recorded in the audit trail')
    .max(refreshReasonMaxLength)
    .meta({ description: 'Why the evidence is renewed, recorded in the audit trail (1 to 500 characters)' }),
});
export type EvidenceRefreshRequest = z.output<typeof evidenceRefreshRequestSchema>;

/** A well-formed refresh whose only fault is an item that is no evidence kind: the case API answers 422. */
export function isUnknownItemIssue(issue: z.core.$ZodIssue): boolean {
  return issue.code === 'invalid_value' && issue.path[0] === 'items';
}
