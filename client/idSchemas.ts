/**
 * One zod schema per kind of id a case is started or operated with (the journey input, the case
 * API, the CLI), each bounded and checked by the rules of idRules.ts, and the schema of a name:
 * no control or bidi characters. A refused id's issue says the limit and how to fix it, and is
 * marked, so that the case API answers it 422 `invalid_id` (isIdIssue).
 */
import { z } from 'zod';
import {
  hasUnsafeCharacter,
  ID_MAX_LENGTH,
  idKinds,
  idProblem,
  UNSAFE_TEXT_CLASS,
  UNSAFE_TEXT_WORDS,
  type IdKind,
} from './idRules';

const INVALID_ID = 'invalidId';

/** An id of `kind` (idRules.ts); a refusal names the limit and `fix`. Documented with its bounds. */
function idSchema(kind: IdKind, fix: string, description: string) {
  return z
    .string()
    .superRefine((value, ctx) => {
      const problem = idProblem(value, kind);
      if (problem) ctx.addIssue({ code: 'custom', message: `${problem}; ${fix}`, params: { [INVALID_ID]: kind } });
    })
    .meta({ description, minLength: 1, maxLength: ID_MAX_LENGTH, pattern: idKinds[kind].pattern.source });
}

/** Whether a zod issue is an id refused by one of these schemas. */
export function isIdIssue(issue: z.core.$ZodIssue): boolean {
  return issue.code === 'custom' && issue.params?.[INVALID_ID] !== undefined;
}

export const caseIdSchema = idSchema(
  'provider',
  'use the case_id the provider answered when the case was created there',
  `The provider's case id: ${idKinds.provider.characters}, at most ${ID_MAX_LENGTH} characters`,
);

export const personIdSchema = idSchema(
  'provider',
  'use the person_id the provider answered when the person was created there',
  `The provider's person id: ${idKinds.provider.characters}, at most ${ID_MAX_LENGTH} characters`,
);

export const companyIdSchema = idSchema(
  'provider',
  'use the company_id the provider answered for the company',
  `The provider's company id: ${idKinds.provider.characters}, at most ${ID_MAX_LENGTH} characters`,
);

/** A credit bureau's id of a company: a picklist choice, or `company.provider_id`. */
export const bureauCompanyIdSchema = idSchema(
  'other',
  "use a provider_id the credit report's picklist offers",
  `The credit bureau's id of the company (a picklist entry's provider_id): ${idKinds.other.characters}, ` +
    `at most ${ID_MAX_LENGTH} characters`,
);

export const referenceSchema = idSchema(
  'other',
  "use the lender's application id",
  "The lender's own reference for the case (its application id): never sent to the provider, stored and " +
    `searchable (GET /v1/cases?reference=…); ${idKinds.other.characters}, at most ${ID_MAX_LENGTH} characters`,
);

/** A step key: a step's name, and for identity verification `/<personId>`. */
export const STEP_KEY_MAX_LENGTH = 300;
export const stepKeySchema = z
  .string()
  .max(STEP_KEY_MAX_LENGTH)
  .regex(
    /^[a-z][a-z-]*(\/[A-Za-z0-9][A-Za-z0-9._:-]*)?$/,
    'must be a step key: a step name such as credit-report, or identity-verification/<personId>',
  );

/** The documented pattern of a name: none of the unsafe characters (idRules.ts). */
export const SAFE_TEXT_PATTERN = `^[^${UNSAFE_TEXT_CLASS}]*$`;

/** A name (a company's, a person's): at most `max` characters, none of them control or bidi characters. */
export function nameSchema(max: number) {
  return z
    .string()
    .max(max)
    .refine((value) => !hasUnsafeCharacter(value), `must hold no ${UNSAFE_TEXT_WORDS}`)
    .meta({ pattern: SAFE_TEXT_PATTERN });
}
