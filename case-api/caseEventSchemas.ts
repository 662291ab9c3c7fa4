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
