/**
 * The case API's request and response shapes (zod), the single source of both the runtime checks
 * and the OpenAPI document.
 */
import { z } from 'zod';
import { stepStates } from '../client/stepState';
import { caseIdSchema } from '../client/caseId';
import { evidenceKindNames } from '../client/evidenceValidity';
import { bureauCompanyIdSchema, referenceSchema, STEP_KEY_MAX_LENGTH, stepKeySchema } from '../client/idSchemas';
import { bulkRetryMaxCases, bulkStepRetryRequestSchema } from '../client/bulkStepRetryRequest';
import { checkStepsHaveWhatTheyNeed, freshnessSchema, onboardCaseInputFields } from '../client/journeyInput';
import type { StepField } from '../client/journeyNames';
import { operatorRequestIdSchema } from '../client/operatorRequestId';
import { defaultDeadlines } from '../client/deadlines';
import { deadlineDurationSchema } from '../config/deadlineDuration';
import { NUL_FREE_TEXT_PATTERN } from './nulCharacters';

const deadlineKeys = Object.keys(defaultDeadlines) as [
  keyof typeof defaultDeadlines,
  ...(keyof typeof defaultDeadlines)[],
];

export const journeyStates = ['running', 'needs_attention', 'completed', 'cancelled'] as const;

export const errorBodySchema = z
  .object({ error: z.string().meta({ description: 'A stable machine-readable code' }), message: z.string() })
  .meta({ id: 'Error' });

/**
 * The case's own times for the events the LOS acts on: kept in the case file, never sent
 * to the journey; each unset one takes the deployment's default (CASE_EVENTS_* of the workers).
 */
const caseEventTimesRequestSchema = z
  .object({
    applicantActionDueAfter: deadlineDurationSchema.optional().meta({
      description:
        'case.applicant_action_due is sent once a step has waited this long on the applicant ' +
        'with a link (default CASE_EVENTS_ACTION_DUE_AFTER_MS, 1 day)',
    }),
    applicantActionDueEvery: deadlineDurationSchema.optional().meta({
      description:
        '…and again every this long until the step stops waiting (default CASE_EVENTS_ACTION_DUE_EVERY_MS, 1 day)',
    }),
    attentionSla: deadlineDurationSchema.optional().meta({
      description:
        'case.sla_breached is sent once the case has needed attention this long (default CASE_EVENTS_SLA_MS, 4 hours)',
    }),
  })
  .strict()
  .meta({ id: 'CaseEventTimes' });

/**
 * The journey input, without `carryOver` (that belongs to `journey retry` of a closed journey) and
 * without unknown fields: what the document shows is what is accepted, and any other field is a 400
 * naming it rather than silently dropped.
 */
export const startCaseRequestSchema = onboardCaseInputFields
  .omit({ carryOver: true })
  .extend({
    caseId: caseIdSchema.meta({
      description:
        "The provider's case id (its case entity, which the lender creates at the provider first; " +
        'docs/integration.md): letters, digits, . _ : -, starting with a letter or digit, at most 200 characters',
    }),
    deadlines: z.partialRecord(z.enum(deadlineKeys), deadlineDurationSchema).default({}),
    freshness: freshnessSchema(deadlineDurationSchema).default({}),
    notifications: caseEventTimesRequestSchema.optional(),
  })
  .strict()
  .superRefine(checkStepsHaveWhatTheyNeed)
  .meta({
    id: 'StartCaseRequest',
    description: 'The input of the onboardCase journey',
    allOf: stepNeedsAsJsonSchema(),
  });

/**
 * checkStepsHaveWhatTheyNeed's rules as JSON Schema (zod cannot express a refinement), so that the
 * document refuses what the API refuses: the credit report needs a company, identity verification
 * a person, affordability a banking method. The contract test finds any drift between the two.
 */
function stepNeedsAsJsonSchema() {
  const when = (step: StepField) => ({
    properties: { steps: { properties: { [step]: { const: true } }, required: [step] } },
    required: ['steps'],
  });
  const asks = (step: StepField, value: Record<string, unknown>) => ({
    properties: { [step]: value },
    required: [step],
  });
  return [
    // At least one step: a journey of none would complete having verified nothing.
    {
      properties: {
        steps: {
          anyOf: [
            asks('creditReport', { const: true }),
            asks('identityVerification', { const: true }),
            asks('banking', {}),
            asks('documents', { minItems: 1 }),
            asks('affordability', { const: true }),
            asks('incomeEmployer', { const: true }),
          ],
        },
      },
    },
    { if: when('creditReport'), then: { required: ['company'] } },
    { if: when('identityVerification'), then: { required: ['people'], properties: { people: { minItems: 1 } } } },
    { if: when('affordability'), then: { properties: { steps: { required: ['banking'] } } } },
  ];
}

export const startCaseResponseSchema = z
  .object({
    caseId: z.string(),
    workflowId: z.string(),
    runId: z.string().nullable().meta({ description: 'The run started now, or null when the case existed' }),
    created: z.boolean(),
  })
  .meta({ id: 'StartCaseResponse' });

const providerErrorSchema = z.object({ status: z.number().int().nullable(), message: z.string() });

const attemptSchema = z.object({
  attempt: z.number().int(),
  workflowId: z.string(),
  state: z.enum(stepStates),
  providerIds: z.record(z.string(), z.string()),
  reason: z.string().nullable(),
  requestedBecause: z.string().nullable().optional(),
  carriedOver: z.boolean().optional(),
  need: z.number().int().optional().meta({
    description:
      'The need this attempt worked for: attempts of one need share their idempotency keys and continue its purchase',
  }),
  fresh: z.boolean().optional().meta({ description: 'An operator asked for a new purchase (retry with fresh: true)' }),
  needSpent: z
    .boolean()
    .optional()
    .meta({ description: 'What this attempt bought is finished and unusable: the next attempt buys anew' }),
});

export const picklistEntrySchema = z.looseObject({
  provider_id: z.string(),
  company_name: z.string(),
  company_number: z.string().nullable().optional(),
  country_code: z.string().nullable().optional(),
  address: z.string().nullable().optional(),
});

const isoTime = (description: string) => z.string().meta({ description: `${description} (ISO 8601)` });

/** One step's evidence and how long it stays valid (client/evidenceValidity.ts). */
const evidenceValiditySchema = z
  .object({
    kind: z.enum(evidenceKindNames),
    measuredFrom: isoTime('The date the validity window is measured from'),
    dateFrom: z.enum(['provider', 'read']).meta({
      description:
        "Whose date measuredFrom is: the provider's own (an IDV's date_completed, the last bank " +
        "transaction's date, an insight's datetime_completed), or when the journey read the data",
    }),
    validUntil: isoTime('When the evidence goes stale'),
    stale: z.boolean().meta({
      description: 'The journey completed with this item past its window (the case said refreshStale: false)',
    }),
    refreshes: z.number().int().meta({ description: 'How many times the journey renewed it' }),
    lastRefreshReason: z.string().optional().meta({ description: 'Why it was last renewed' }),
  })
  .meta({ id: 'EvidenceValidity' });

const stepSchema = z
  .object({
    state: z.enum(stepStates),
    workflowId: z.string(),
    attempt: z.number().int(),
    attempts: z.array(attemptSchema),
    dependsOn: z.string().nullable(),
    need: z
      .number()
      .int()
      .optional()
      .meta({ description: 'The need the current attempt works for (0 before the first attempt)' }),
    actions: z
      .array(z.string())
      .optional()
      .meta({
        description:
          'What an operator can do about the step now, as the journey accepts it: ' +
          '`retryStep <step>`, `waiveStep <step>`, `resolvePicklist`',
      }),
    needSpent: z.boolean().optional(),
    providerIds: z.record(z.string(), z.string()),
    lastEvent: z.object({ eventType: z.string(), receivedAt: z.string() }).nullable(),
    reason: z.string().nullable(),
    error: providerErrorSchema.nullable().optional(),
    links: z
      .record(z.string(), z.string())
      .optional()
      .meta({ description: 'Links the applicant must open (IDV, bank connection)' }),
    picklist: z
      .array(picklistEntrySchema)
      .nullable()
      .meta({ description: 'Companies to choose from while the credit report waits for a picklist choice' }),
    detail: z.unknown().meta({
      description:
        "Step-specific detail (accounts read, document outcomes; the credit report's picklist, report " +
        'headline, resolvedBy, and expiresAt: while it waits on a picklist, when that wait expires, ISO 8601)',
    }),
    evidenceDate: z.string().nullable().optional().meta({
      description: "The provider's own date of what the last completed attempt read, where its data carries one",
    }),
    evidence: evidenceValiditySchema
      .optional()
      .meta({ description: "The step's evidence and its validUntil, once an attempt completed (documents: none)" }),
  })
  .meta({ id: 'Step' });

/** The lender's reference as the case API answers it: null when the case was started without one. */
const referenceAnswer = z
  .string()
  .nullable()
  .optional()
  .meta({
    description:
      "The lender's own reference for the case (its application id), as the start gave it; null: none. " +
      'The provider never sees it',
  });

export const caseStatusSchema = z
  .object({
    caseId: z.string().meta({ description: "The provider's case id" }),
    reference: referenceAnswer,
    state: z.enum(journeyStates),
    runStatus: z.string().meta({ description: 'Temporal execution status: RUNNING, COMPLETED, …' }),
    runId: z.string().nullable().meta({ description: 'The latest run of the journey' }),
    steps: z
      .record(z.string(), stepSchema)
      .meta({ description: 'By step key; IDV steps are identity-verification/<personId>' }),
    reasons: z.array(z.string()),
    operatorDeadline: z.string().nullable().optional(),
    evidence: z.record(z.string(), evidenceValiditySchema).meta({
      description:
        "Each completed step's evidence, by step key, with when it goes stale (validUntil): the same " +
        "items as the steps' evidence",
    }),
    assignee: z
      .string()
      .nullable()
      .optional()
      .meta({ description: 'The operator who owns the case (POST /v1/cases/{caseId}/assign); null: nobody' }),
  })
  .meta({ id: 'CaseStatus' });

/**
 * An integer query parameter written in decimal digits only: `z.coerce.number()` would take
 * `0x10`, ` 5` or `1e1` as numbers the document does not describe. Documented as an integer.
 */
function queryInteger(minimum: number, maximum: number) {
  const digits = (value: unknown) =>
    typeof value === 'string' && /^(0|[1-9][0-9]{0,15})$/.test(value) ? Number(value) : value;
  return z.preprocess(digits, z.number().int().min(minimum).max(maximum)).meta({ type: 'integer', minimum, maximum });
}

export const listCasesQuerySchema = z.object({
  state: z.enum(journeyStates).optional(),
  pageSize: queryInteger(1, 100).default(20),
  pageToken: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,4096}$/, 'must be a nextPageToken from an earlier page')
    .optional(),
  step: z.string().min(1).max(300).optional().meta({
    description: "Only cases with this step (a key such as banking, or identity-verification for every person's)",
  }),
  stepState: z
    .string()
    .min(1)
    .max(40)
    .optional()
    .meta({ description: 'Only cases with a step (the one named by step, else any) in this state' }),
  waitingLongerThanMinutes: queryInteger(0, 525_600)
    .optional()
    .meta({ description: 'Only cases that have waited for an operator at least this long' }),
  name: z
    .string()
    .min(1)
    .max(200)
    .optional()
    .meta({ description: "Part of the company's or an applicant's name, any case" }),
  reference: referenceSchema
    .optional()
    .meta({ description: "Only the cases started with this lender's reference (exactly)" }),
  sort: z
    .enum(['newest', 'oldest', 'deadline'])
    .default('newest')
    .meta({
      description:
        'By start (newest or oldest first), or by deadline (the operator deadline, or sooner the ' +
        'expiry of a picklist wait), soonest first; cases without one last',
    }),
  assignee: z.string().max(200).optional().meta({
    description: 'Only cases this operator owns (POST /v1/cases/{caseId}/assign); empty: only cases nobody owns',
  }),
});

export const caseListSchema = z
  .object({
    cases: z.array(
      z.object({
        caseId: z.string(),
        workflowId: z.string(),
        runId: z.string(),
        state: z.string().meta({ description: 'The journey state (JourneyState search attribute)' }),
        runStatus: z.string(),
        startedAt: z.string().nullable(),
        company: z.string().nullable().optional().meta({ description: "The company's name as the case file knows it" }),
        applicants: z.array(z.object({ personId: z.string(), name: z.string().nullable() })).optional(),
        reference: referenceAnswer,
        reasons: z.array(z.string()).optional(),
        waitingSince: z
          .string()
          .nullable()
          .optional()
          .meta({ description: 'Since when the journey has waited for an operator' }),
        operatorDeadline: z
          .string()
          .nullable()
          .optional()
          .meta({ description: 'While the journey waits only for an operator: when that wait ends' }),
        deadline: z
          .string()
          .nullable()
          .optional()
          .meta({
            description:
              "The case's deadline in the queue: the earlier of operatorDeadline and when the " +
              "wait of a step waiting on a picklist expires (the credit report's " +
              'detail.expiresAt); what sort=deadline orders by. Null: neither',
          }),
        updatedAt: z.string().optional().meta({ description: 'When the journey last wrote its state' }),
        assignee: z
          .string()
          .nullable()
          .optional()
          .meta({ description: 'The operator who owns the case; null: nobody' }),
      }),
    ),
    nextPageToken: z
      .string()
      .nullable()
      .meta({ description: 'Pass as pageToken for the next page; null on the last page' }),
  })
  .meta({ id: 'CaseList' });

/** A text field: trimmed, not empty once trimmed, documented as such (NUL_FREE_TEXT_PATTERN). */
const text = (max: number, emptyMessage?: string) =>
  z.string().trim().min(1, emptyMessage).max(max).meta({ pattern: NUL_FREE_TEXT_PATTERN });

export const retryStepRequestSchema = z
  .object({
    reason: text(500).optional(),
    fresh: z
      .boolean()
      .optional()
      .meta({
        description:
          'Ask the provider for a new purchase (a new report, a new IDV request) ' +
          'instead of continuing what it still holds for the step',
      }),
  })
  .strict()
  .meta({ id: 'RetryStepRequest' });
export const waiveStepRequestSchema = z
  .object({ reason: text(500, 'reason is required') })
  .strict()
  .meta({ id: 'WaiveStepRequest' });
export const resolvePicklistRequestSchema = z
  .object({ providerId: bureauCompanyIdSchema })
  .strict()
  .meta({ id: 'ResolvePicklistRequest' });
export const cancelRequestSchema = z
  .object({ reason: text(500).optional() })
  .strict()
  .meta({ id: 'CancelRequest' });

/**
 * The operator actions' optional `Idempotency-Key` header: it becomes the Update's id (namespaced
 * by the action), so a repeated request answers the first result and acts once.
 */
export const idempotencyKeyHeaders = z.object({
  'Idempotency-Key': operatorRequestIdSchema.optional().meta({
    description:
      'Makes the request safe to repeat: a repeat with the same key on the same case and action answers ' +
      'the first result and acts once (1 to 200 printable ASCII characters)',
  }),
});

const bulkFields = bulkStepRetryRequestSchema.shape;
export const bulkRetryStepRequestSchema = bulkStepRetryRequestSchema
  .extend({
    where: bulkFields.where.meta({ pattern: NUL_FREE_TEXT_PATTERN }),
    step: bulkFields.step.meta({ pattern: NUL_FREE_TEXT_PATTERN }),
    reason: bulkFields.reason.meta({ pattern: NUL_FREE_TEXT_PATTERN }),
    dryRun: z.boolean().default(true).meta({
      description: 'true (the default): answer the plan and retry nothing; false: retry the step on each case',
    }),
  })
  .strict()
  .meta({
    id: 'BulkRetryStepRequest',
    description: `Retry one step on every running journey a visibility query matches (at most ${bulkRetryMaxCases})`,
  });

const bulkRetryCaseSchema = z.object({
  caseId: z.string(),
  workflowId: z.string(),
  runId: z.string(),
  state: z.string().meta({ description: 'The journey state (JourneyState search attribute)' }),
  stepState: z
    .string()
    .nullable()
    .optional()
    .meta({ description: "The step's state on this case (null: no such step, or the journey did not answer)" }),
});

const bulkRetryPlanSchema = z
  .object({
    dryRun: z.literal(true),
    query: z.string().meta({
      description: "The visibility query as run: running journeys of this deployment and the request's where",
    }),
    step: z.string(),
    requestId: z
      .string()
      .meta({ description: 'Send it back with dryRun: false so that the run (and any re-run) uses it' }),
    cases: z.array(bulkRetryCaseSchema),
    more: z.boolean().meta({ description: `More than ${bulkRetryMaxCases} journeys match: narrow the query` }),
  })
  .meta({ id: 'BulkRetryStepPlan' });

const refusalSchema = z.object({ caseId: z.string(), outcome: z.string(), message: z.string() });

const bulkRetrySummarySchema = z
  .object({
    dryRun: z.literal(false),
    query: z.string(),
    requestId: z.string().meta({
      description: 'Re-run with it to retry only what was not accepted: accepted cases answer their first result',
    }),
    step: z.string(),
    fresh: z.boolean(),
    cases: z.number().int(),
    accepted: z.array(
      z.object({ caseId: z.string(), outcome: z.string(), attempt: z.number().int(), workflowId: z.string() }),
    ),
    refused: z
      .array(refusalSchema)
      .meta({ description: "Refused by the journey (its validator's message), or closed since it was listed" }),
    failed: z
      .array(refusalSchema)
      .meta({ description: 'Not answered (Temporal unavailable): re-run with the same requestId' }),
  })
  .meta({ id: 'BulkRetryStepSummary' });

export const bulkRetryStepAnswerSchema = z
  .discriminatedUnion('dryRun', [bulkRetryPlanSchema, bulkRetrySummarySchema])
  .meta({ id: 'BulkRetryStepAnswer' });

export const actionResultSchema = z.object({ step: z.string(), status: stepSchema }).meta({ id: 'ActionResult' });
export const cancelResultSchema = z
  .object({ caseId: z.string(), cancelRequested: z.literal(true) })
  .meta({ id: 'CancelResult' });

/** Assign a case to an operator (by the name they sign in with), or release it with null. */
export const assignCaseRequestSchema = z
  .object({
    assignee: text(200).nullable().meta({
      description: 'The operator who is to own the case (themself or a colleague), by name; null releases the case',
    }),
    reason: text(500).optional(),
  })
  .strict()
  .meta({ id: 'AssignCaseRequest' });
export const assignmentSchema = z
  .object({
    caseId: z.string(),
    assignee: z.string().nullable(),
    assignedAt: z.string().nullable().meta({ description: 'Since when the assignee owns the case' }),
  })
  .meta({ id: 'Assignment' });

export const caseIdParam = caseIdSchema;
export const stepParam = stepKeySchema.meta({
  maxLength: STEP_KEY_MAX_LENGTH,
  description: 'A step key, URL-encoded: identity-verification/<personId> is identity-verification%2F<personId>',
});

export const timelineSchema = z
  .object({
    caseId: z.string(),
    entries: z.array(
      z.union([
        z.object({
          kind: z.literal('operator_action'),
          id: z.number().int().meta({ description: "The audit trail entry's number" }),
          caseId: z.string(),
          at: z.string(),
          actor: z.string(),
          action: z.string(),
          step: z.string().nullable(),
          assignee: z.string().nullable().meta({ description: 'To whom an assign action gave the case' }),
          reason: z.string().nullable(),
          requestId: z.string().nullable(),
          outcome: z.enum(['accepted', 'refused']),
          message: z.string().nullable().meta({ description: "The journey's refusal" }),
        }),
        z.object({
          kind: z.literal('provider_record'),
          at: z.string(),
          record: z.string(),
          attemptId: z.string(),
          id: z.string(),
          status: z.string().nullable(),
        }),
        z
          .object({
            kind: z.literal('notification'),
            at: z.string(),
            type: z.string(),
            state: z.string(),
            step: z.string().nullable(),
            runId: z.string(),
            sequence: z.number().int(),
          })
          .meta({ description: 'A journey event the LOS took (CASE_EVENTS_URL), when it took it' }),
        z
          .object({
            kind: z.literal('case_event'),
            at: z.string().meta({ description: 'When the LOS took it' }),
            type: z.string().meta({
              description:
                'case.applicant_action_due, case.step_expired, case.sla_breached ' +
                'or case.operator_action (more may come)',
            }),
            eventId: z.string().meta({
              description: "The event's id (its webhook-id): GET /v1/cases/{caseId}/events lists its body under it",
            }),
            step: z.string().nullable().meta({ description: 'The step key the event is about, if any' }),
          })
          .meta({
            description:
              'An event of the case the outbox sent (reminders, expiries, SLA breaches, ' +
              'operator actions) and the LOS took, when it took it; no data',
          }),
      ]),
    ),
  })
  .meta({ id: 'CaseTimeline' });
