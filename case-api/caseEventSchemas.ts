/**
 * The events the LOS receives (Standard Webhooks bodies) and lists (`GET /v1/cases/{caseId}/events`),
 * as zod: the one source of the OpenAPI document's `webhooks` section, of the events endpoint's
 * answer, and so of the generated client's types (packages/case-api-client).
 */
import { z } from 'zod';
import { caseEventVersion } from '../case-events/sendCaseEvent';

/**
 * The lender's own reference for the case, in every event of a case started with one (absent
 * otherwise): the LOS finds the case by its own id.
 */
const reference = z
  .string()
  .optional()
  .meta({ description: "The lender's own reference for the case (its application id), when it was started with one" });
const run = { caseId: z.string(), reference, workflowId: z.string(), runId: z.string() };
const stepRef = z.object({ key: z.string(), attempt: z.number().int() }).meta({ id: 'CaseEventStep' });
const time = (description: string) => z.string().meta({ description: `${description} (ISO 8601)` });

const journeyData = z.object({
  ...run,
  sequence: z
    .number()
    .int()
    .meta({ description: '1, 2, … within the run, ' + 'in the order the journey saw the changes' }),
  state: z.string().meta({ description: "The journey's state after the change" }),
  step: stepRef.optional(),
  reasons: z.array(z.string()),
});

/** Each event type: when it is sent, and its `data`. */
export const caseEventCatalogue = [
  { type: 'case.step_completed', summary: "A step's attempt completed (data.step)", data: journeyData },
  {
    type: 'case.needs_attention',
    summary: 'The journey waits for an operator (each time it comes to that)',
    data: journeyData,
  },
  { type: 'case.completed', summary: 'Every step is completed or waived', data: journeyData },
  { type: 'case.cancelled', summary: 'The journey was cancelled', data: journeyData },
  {
    type: 'case.evidence_refreshed',
    summary:
      "An item of the case's evidence went past its validity window before the journey completed, and " +
      'the renewed attempt (a new purchase; a renewed identity check sends the applicant a new link) completed ' +
      '(data.step): the journey completes after it',
    data: journeyData.extend({
      step: stepRef,
      kind: z.string().meta({
        description:
          'The evidence kind renewed: creditReport, identityVerification, bankTransactions, affordability, ' +
          'incomeEmployer (an LOS ignores one it does not know)',
      }),
      reason: z.string().meta({ description: 'Why it was renewed: evidence stale: <kind> valid until <ISO 8601>' }),
      validUntil: time('When the renewed evidence goes stale'),
    }),
  },
  {
    type: 'case.applicant_action_due',
    summary:
      "A step has waited on the applicant with a link longer than the case's applicantActionDueAfter, and " +
      'again every applicantActionDueEvery until the step attempt stops waiting: the LOS reminds the ' +
      'applicant (the links are in GET /v1/cases/{caseId}, steps[key].links)',
    data: z.object({
      ...run,
      step: stepRef,
      reminder: z
        .number()
        .int()
        .min(1)
        .meta({
          description:
            '1 for the first, then 2, 3, … (a reminder that fell due while no worker ran ' +
            'is skipped: the latest is sent)',
        }),
      waitingSince: time('Since when the step attempt waits with a link'),
      dueAfterMs: z.number().int(),
      everyMs: z.number().int(),
    }),
  },
  {
    type: 'case.step_expired',
    summary: "A step's attempt expired: its deadline passed, or the provider expired the request",
    data: z.object({
      ...run,
      step: stepRef,
      reason: z.string().nullable().meta({ description: "The step's reason (no applicant data)" }),
    }),
  },
  {
    type: 'case.sla_breached',
    summary:
      "The case has needed attention longer than its SLA (attentionSla, or the deployment's " +
      'CASE_EVENTS_SLA_MS); once each time it comes to need attention',
    data: z.object({
      ...run,
      waitingSince: time('Since when the case needs attention'),
      slaMs: z.number().int(),
      operatorDeadline: time('When the journey stops waiting for an operator').nullable(),
      reasons: z.array(z.string()),
    }),
  },
  {
    type: 'case.evidence_expiring',
    summary:
      "An item of the case's evidence goes stale soon: sent once per item and validUntil when it is " +
      "within the deployment's lead time (CASE_EVENTS_EVIDENCE_EXPIRING_BEFORE, default 3 days), for " +
      'running and closed cases alike: the LOS renews it (a refresh of the case) or decides before then',
    data: z.object({
      ...run,
      step: z.string().meta({ description: 'The step key the evidence came from (identity-verification/<personId>)' }),
      kind: z.string().meta({
        description:
          'The evidence kind: creditReport, identityVerification, bankTransactions, affordability, ' +
          'incomeEmployer (more may come)',
      }),
      validUntil: time('When the item goes stale'),
      expiringBeforeMs: z.number().int().meta({ description: 'The lead time the event was sent at' }),
    }),
  },
  {
    type: 'case.evidence_superseded',
    summary:
      'The provider sent a later result that contradicts one the journey used (a second IDV result ' +
      'with another verdict, a new banking outcome after the banking step completed); the case is in ' +
      "the operator's queue (state=needs_attention) until an operator acts on it or a new run starts. " +
      "The journey's outcome is not changed",
    data: z.object({
      ...run,
      step: z.string().meta({ description: 'The step key whose evidence is superseded' }),
      kind: z.enum(['identityVerification', 'bankTransactions']).meta({ description: 'The evidence kind' }),
      providerId: z
        .string()
        .nullable()
        .meta({ description: "The provider's id of what came: the IDV request, or the bank connection" }),
      used: z
        .object({
          verificationStatus: z.string().optional(),
          status: z.string().optional(),
          bankConnectionId: z.string().nullable().optional(),
        })
        .meta({ description: 'What the journey used: the IDV verdict, or the banking status and connection' }),
      came: z
        .object({
          verificationStatus: z.string().optional(),
          status: z.string().optional(),
          bankConnectionId: z.string().nullable().optional(),
        })
        .meta({ description: 'What came later, in the same terms (verdicts and statuses only, no applicant data)' }),
    }),
  },
  {
    type: 'case.operator_action',
    summary:
      'An operator action was accepted: who did what (from the audit trail; the ' +
      'free-text reason is left out, as it may name the applicant)',
    data: z.object({
      caseId: z.string(),
      reference,
      auditId: z.number().int(),
      actor: z.string().meta({ description: "The API key's name or the console's operator" }),
      action: z.string().meta({
        description:
          "The audit trail's action: retryStep, waiveStep, resolvePicklist, cancel, and those added " +
          'later (assign, release); an LOS ignores one it does not know',
      }),
      step: z.string().nullable(),
      requestId: z.string().nullable(),
      at: time('When the action was recorded'),
    }),
  },
] as const;

export type CaseEventTypeName = (typeof caseEventCatalogue)[number]['type'];

const pascal = (type: string) =>
  type.replace(/^case\./, '').replace(/(^|_)([a-z])/g, (_, __, c: string) => c.toUpperCase());

/** The body of each event type, as POSTed (Standard Webhooks). */
export const caseEventBodies = caseEventCatalogue.map((e) =>
  z
    .object({
      type: z.literal(e.type),
      version: z
        .literal(caseEventVersion)
        .meta({ description: "The body's version: it changes only when a field changes meaning or goes away" }),
      timestamp: time('When it happened'),
      data: e.data,
    })
    .meta({ id: `${pascal(e.type)}Event`, description: e.summary }),
);

const listedEvent = z.discriminatedUnion(
  'type',
  caseEventCatalogue.map((e, i) =>
    (caseEventBodies[i] as z.ZodObject).extend({
      id: z.string().meta({ description: "The event's id: the `webhook-id` it was (or will be) sent with" }),
      deliveredAt: z.string().nullable().meta({ description: 'When the LOS took it (a 2xx), or null' }),
    }),
  ) as unknown as [z.ZodObject, ...z.ZodObject[]],
);

export const caseEventListSchema = z
  .object({
    caseId: z.string(),
    events: z.array(listedEvent).meta({ description: 'Every event of the case, in the order it was recorded' }),
  })
  .meta({ id: 'CaseEventList' });

/** The OpenAPI document's `webhooks`: one per event type. */
export const caseEventWebhooks = caseEventCatalogue.map((e, i) => ({
  name: e.type,
  summary: e.summary,
  body: caseEventBodies[i]!,
}));
