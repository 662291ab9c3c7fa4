/**
 * The input of `onboardCase`, validated with zod at the boundary: every client parses it with this
 * schema before it starts a journey (journeyOperations.ts). Workflow code imports its types only
 * and reads the input as parsed, so a rule tightened later never changes the replay of a journey
 * already started; nor is a schema built in the workflow bundle, where every run would build it.
 */
import { z } from 'zod';
import { creditReportRequestSchema, documentKindSchema } from '../provider';
import { defaultDeadlines } from './deadlines';
import { evidenceKindNames, evidenceKinds, type EvidenceKind } from './evidenceValidity';
import { journeySteps, type StepField } from './journeyNames';
import {
  bureauCompanyIdSchema,
  caseIdSchema,
  companyIdSchema,
  nameSchema,
  personIdSchema,
  referenceSchema,
} from './idSchemas';

const stepFields = Object.keys(journeySteps) as StepField[];

/** A Temporal duration: milliseconds, or text such as `"2 days"` or `"90 seconds"`. */
const duration = z.union([
  z.number().int().positive(),
  z.string().regex(/^\d+(\.\d+)?\s*[a-zA-Z]+$|^\d+$/, 'must be a duration such as "2 days"'),
]);

/** One step's evidence as a journey reported it (client/evidenceValidity.ts `EvidenceValidity`). */
export const evidenceValiditySchema = z.object({
  kind: z.enum(evidenceKindNames),
  measuredFrom: z.iso.datetime({ offset: true }),
  dateFrom: z.enum(['provider', 'read']),
  validUntil: z.iso.datetime({ offset: true }),
  stale: z.boolean(),
  refreshes: z.number().int().min(0),
  lastRefreshReason: z.string().optional(),
});

/**
 * A case's validity windows, by evidence kind (client/evidenceValidity.ts), each a duration as
 * `duration` takes it; a kind not named keeps its default. A name that is no kind is refused by
 * name, with the kinds there are: dropped, it would leave the case held to a default it meant to change.
 */
export function freshnessSchema(duration: z.ZodType<number | string>) {
  const shape = Object.fromEntries(evidenceKindNames.map((kind) => [kind, duration.optional()])) as Record<
    EvidenceKind,
    z.ZodOptional<z.ZodType<number | string>>
  >;
  return z
    .strictObject(shape, {
      error: (issue) =>
        issue.code === 'unrecognized_keys'
          ? `unknown evidence kind ${issue.keys.map((k) => JSON.stringify(k)).join(', ')}; the kinds are ` +
            evidenceKindNames.join(', ')
          : undefined,
    })
    .meta({
      description:
        "How long each kind of evidence stays valid, measured from the provider's own date where the data " +
        'carries one, else from when the journey read it; a kind not named keeps its default (' +
        evidenceKindNames.map((kind) => `${kind} from ${evidenceKinds[kind].step}`).join(', ') +
        ')',
    });
}

/** A step taken over from an earlier run of the journey (`journey retry`): no provider call again. */
const carriedStepSchema = z.object({
  state: z.enum(['completed', 'waived']),
  attempt: z.number().int().min(1),
  workflowId: z.string().min(1),
  providerIds: z.record(z.string(), z.string()).default({}),
  reason: z.string().nullable().default(null),
  detail: z.unknown().optional(),
  lastEvent: z
    .object({ eventType: z.string(), receivedAt: z.string(), problems: z.array(z.string()).optional() })
    .nullable()
    .default(null),
  /** Its evidence as the earlier run reported it: the new run measures it against its own windows. */
  evidence: evidenceValiditySchema.optional(),
});

/** A document `journey upload` put in the case file: the journey carries its id, never its bytes. */
export const documentReferenceSchema = z.object({
  document_id: z.uuid({ error: 'document_id must be the id `journey upload` printed' }),
  file_name: z.string().min(1).max(255),
  document_type: documentKindSchema.nullable().optional(),
});

export const purchaseContinuationSchema = z.object({
  need: z.number().int().min(1),
  /** The need's purchase is finished and unusable: the next attempt starts need + 1. */
  needSpent: z.boolean().optional(),
  /** The ids the need holds at the provider (a report_id, a request_id). */
  providerIds: z.record(z.string(), z.string()).default({}),
  /** IDV: requests sent to the person that the applicant may still complete. */
  openRequests: z.array(z.string()).default([]),
});
export type PurchaseContinuation = z.output<typeof purchaseContinuationSchema>;

export const carryOverSchema = z.object({
  /** Completed and waived steps of the earlier run, by step key. */
  steps: z.record(z.string(), carriedStepSchema).default({}),
  /** Attempts each step has had so far: new attempts continue the count (new child workflow ids). */
  attempts: z.record(z.string(), z.number().int().min(0)).default({}),
  /**
   * What each step that runs again continues (client/purchaseKey.ts): its need, and what the
   * provider holds for it, so the new run's attempt reuses the keys of a purchase whose answer is
   * unknown and continues a report or a request instead of buying again.
   */
  purchases: z.record(z.string(), purchaseContinuationSchema).default({}),
});
export type CarryOver = z.output<typeof carryOverSchema>;

const deadlineKeys = Object.keys(defaultDeadlines) as [
  keyof typeof defaultDeadlines,
  ...(keyof typeof defaultDeadlines)[],
];

/**
 * The steps a case asks for, by their field (journeyNames.ts). A name that is not a step (a typo
 * such as `creditreport`) is refused by name with the names there are: dropped, it would leave a
 * case verified with nothing verified.
 */
const stepsSchema = z.strictObject(
  {
    creditReport: z.boolean().default(false),
    identityVerification: z.boolean().default(false),
    banking: z.enum(['open_banking', 'bank_statements']).optional(),
    documents: z.array(documentReferenceSchema).optional(),
    affordability: z.boolean().default(false),
    incomeEmployer: z.boolean().default(false),
  },
  {
    error: (issue) =>
      issue.code === 'unrecognized_keys'
        ? `unknown step ${issue.keys.map((k) => JSON.stringify(k)).join(', ')}; the steps are ${stepFields.join(', ')}`
        : undefined,
  },
);

/** The company of the credit report: its ids bounded and checked, its name free of control and bidi characters. */
const companySchema = creditReportRequestSchema.extend({
  company_id: companyIdSchema,
  company_name: nameSchema(300).nullable().optional(),
  provider_id: bureauCompanyIdSchema.nullable().optional(),
});

/** The journey input's fields, without the checks across them (the case API derives its request from it). */
export const onboardCaseInputFields = z.object({
  caseId: caseIdSchema,
  // The lender's id of the case; the provider never sees it. The journey carries it so that its
  // events can name the case in the lender's terms.
  reference: referenceSchema.optional(),
  company: companySchema.optional(),
  people: z
    .array(
      z.object({
        personId: personIdSchema,
        // Kept in the case file to show and search the case by; the journey never receives it (journeyOperations.ts).
        name: nameSchema(300)
          .min(1)
          .optional()
          .meta({
            description:
              "The person's name: recorded in the case file, where the queue shows " +
              'and searches it; never sent to the journey',
          }),
      }),
    )
    .default([]),
  steps: stepsSchema,
  deadlines: z.partialRecord(z.enum(deadlineKeys), duration).default({}),
  automaticPicklistRule: z.boolean().default(false),
  maxResubmissions: z.number().int().min(0).max(10).default(2),
  freshness: freshnessSchema(duration).default({}),
  refreshStale: z
    .boolean()
    .default(true)
    .meta({
      description:
        'Before the journey completes, evidence past its window is renewed as a new purchase (default); ' +
        'false: the journey completes with those items flagged stale',
    }),
  carryOver: carryOverSchema.optional(),
});

type InputFields = Pick<z.output<typeof onboardCaseInputFields>, 'steps' | 'company' | 'people'>;

/** What one field of the input asks of another (the steps chosen and what they need). */
export function checkStepsHaveWhatTheyNeed(input: InputFields, ctx: z.RefinementCtx): void {
  if (!asksForAStep(input.steps))
    ctx.addIssue({
      code: 'custom',
      path: ['steps'],
      params: { stepChoice: 'no_step' },
      message: `asks for no step: choose at least one of ${stepFields.join(', ')}`,
    });
  if (input.steps.creditReport && !input.company)
    ctx.addIssue({ code: 'custom', path: ['company'], message: 'company is required for the credit report step' });
  if (input.steps.identityVerification && input.people.length === 0) {
    ctx.addIssue({
      code: 'custom',
      path: ['people'],
      message: 'people needs at least one person for identity verification',
    });
  }
  if (input.steps.affordability && !input.steps.banking) {
    ctx.addIssue({
      code: 'custom',
      path: ['steps', 'banking'],
      message: 'affordability runs after banking: choose a banking method',
    });
  }
}

/** Whether the case asks for any step: a journey with none would complete having verified nothing. */
function asksForAStep(steps: InputFields['steps']): boolean {
  const { creditReport, identityVerification, banking, documents, affordability, incomeEmployer } = steps;
  return creditReport || identityVerification || !!banking || !!documents?.length || affordability || incomeEmployer;
}

/**
 * A problem with the steps a well-formed input asks for (an unknown step, no step at all) rather
 * than with its form: the case API answers 422 when these are the only problems.
 */
export function stepChoiceProblem(issue: z.core.$ZodIssue): 'unknown_step' | 'no_step' | undefined {
  if (issue.code === 'unrecognized_keys' && issue.path.join('.') === 'steps') return 'unknown_step';
  if (issue.code === 'custom' && issue.params?.stepChoice === 'no_step') return 'no_step';
  return undefined;
}

export const onboardCaseInputSchema = onboardCaseInputFields.superRefine(checkStepsHaveWhatTheyNeed);

export type OnboardCaseInput = z.input<typeof onboardCaseInputSchema>;
export type ValidOnboardCaseInput = z.output<typeof onboardCaseInputSchema>;
