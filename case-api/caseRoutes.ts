/** The case API's routes (v1): cases, their status, the operator actions, evidence. */
import { z } from 'zod';
import { bulkRetryMaxCases } from '../client/bulkStepRetryRequest';
import { operatorActions } from '../client/journeyNames';
import { caseEventListSchema } from './caseEventSchemas';
import { purchaseKinds } from '../case-file/purchaseLedger';
import { caseView } from './caseView';
import { evidenceRefreshRoute } from './evidenceRefreshRoute';
import { funnelRoute } from './funnelRoute';
import { openPageToken, sealPageToken } from './pageToken';
import type { RouteSpec } from './routeSpec';
import type { StartRequest } from './startAdmission';
import {
  actionResultSchema,
  assignCaseRequestSchema,
  assignmentSchema,
  bulkRetryStepAnswerSchema,
  bulkRetryStepRequestSchema,
  cancelRequestSchema,
  cancelResultSchema,
  caseIdParam,
  caseListSchema,
  caseStatusSchema,
  errorBodySchema,
  idempotencyKeyHeaders,
  listCasesQuerySchema,
  resolvePicklistRequestSchema,
  retryStepRequestSchema,
  startCaseRequestSchema,
  startCaseResponseSchema,
  stepParam,
  timelineSchema,
  waiveStepRequestSchema,
} from './schemas';

const caseParams = z.object({ caseId: caseIdParam });
const record = z.record(z.string(), z.unknown());
/** One creating call of the purchase ledger (case-file/purchaseLedger.ts), as JSON carries it. */
const purchaseSchema = z
  .object({
    call_key: z.string().meta({ description: 'case/<caseId>/<step>/<need>/<call>' }),
    case_id: z.string(),
    step: z.string(),
    need: z.number().int(),
    call: z.string(),
    kind: z.enum(purchaseKinds),
    subject: z.string().nullable().meta({ description: 'What a search for a lost answer looks by' }),
    state: z.enum(['intended', 'bought', 'unknown']).meta({
      description:
        'intended: the call was sent (or is about to be) and its answer has not come; bought: the provider ' +
        'id is known; unknown: nothing found what the call made, an operator decides (retry to look again, ' +
        'fresh to buy anew)',
    }),
    intended_at: z.string().meta({ description: 'When the intent was recorded (ISO 8601)' }),
    settled_at: z.string().nullable(),
    provider_id: z.string().nullable(),
    answer: z.unknown().meta({ description: "The creating call's answer, or null" }),
    fresh: z.boolean().meta({ description: 'An operator asked for this need to be bought anew' }),
    evidence: z.string().nullable().meta({ description: 'What the search looked at, when the outcome is unknown' }),
  })
  .meta({ id: 'Purchase' });
const evidenceSchema = z
  .object({
    caseId: z.string(),
    creditReports: z.array(record),
    idvResults: z.array(record),
    bankAccounts: z.array(record),
    affordabilityInsights: z.array(record),
    incomeEmployerResults: z.array(record),
    providerDocuments: z.array(record),
    documents: z.array(record),
    purchases: z.array(purchaseSchema),
  })
  .meta({ id: 'CaseEvidence' });
const stepParams = z.object({ caseId: caseIdParam, step: stepParam });

const error = (description: string) => ({ description, schema: errorBodySchema });
const common = {
  400: error('The request is not valid'),
  401: error('No or unknown API key'),
  403: error("The key's role may not do this"),
  429: error('Too many requests'),
  503: error('Temporal did not answer in time, or could not hand the action to the journey just now; try again'),
};
const onCase = { ...common, 404: error('No such case') };
/** What a route that reads a body may also answer (mountRoutes reads bodies only for those). */
const bodyRefusals = {
  400: error(
    'The request is not valid: the message names each problem (a field, an unknown ' +
      'query parameter, a missing body, a body that is not JSON)',
  ),
  413: error('The body is larger than this API takes (CASE_API_MAX_BODY)'),
  415: error(
    'The body is not sent as application/json, or its charset or Content-Encoding is not one this API reads ' +
      '(UTF-8 JSON, as is or gzip, deflate, br): unsupported_media_type',
  ),
};
/** The request was well formed; the case's state stands in its way. */
const closed = error(
  'The journey is closed (case_closed): it takes no more actions; `journey retry` runs a closed journey again',
);
const action = {
  ...onCase,
  ...bodyRefusals,
  200: {
    description: "Accepted: the step as it stands now (a repeated Idempotency-Key: the first request's answer)",
    schema: actionResultSchema,
  },
  409: error(
    "The journey refuses the action in its current state (action_refused, with the journey's " +
      "message: the step's state and the states that allow it, an unknown step, a picklist choice not " +
      'offered, an action under way), or it is closed (case_closed)',
  ),
  422: error('The Idempotency-Key was used on this case for another step (idempotency_key_reused)'),
};
const idempotent =
  ' Send an `Idempotency-Key` header to make the request safe to repeat: a repeat ' +
  'with the same key answers the first result and acts once.';

export const caseRoutes: RouteSpec[] = [
  {
    method: 'post',
    path: '/v1/cases',
    operationId: 'startCase',
    summary: 'Start the onboarding journey of a case',
    description:
      'Idempotent on caseId: a repeat with the same input answers 200 with the existing journey (whatever its ' +
      'state) and starts nothing; a repeat with another input is refused (409), naming the fields that ' +
      "differ. Before anything starts, the provider is asked whether it knows the start's people (422 " +
      'for one it does not). caseId, personId and company_id are ids the provider made; `reference` is ' +
      "the lender's own.",
    role: 'origination',
    body: startCaseRequestSchema,
    responses: {
      ...common,
      ...bodyRefusals,
      201: { description: 'Journey started', schema: startCaseResponseSchema },
      200: {
        description: 'The case already has a journey, started with this same input',
        schema: startCaseResponseSchema,
      },
      409: error(
        'The case was started with another input (start_conflict), or it is closed and a start would ' +
          'change nothing (case_closed: `journey retry` runs it again); the message names the fields that ' +
          'differ. To a key scoped to its own cases, a case another key started (start_conflict, naming nothing)',
      ),
      415: error(
        'The body is not sent as application/json, or in a charset or Content-Encoding this API does not read',
      ),
      422: error(
        'The steps asked for: a name that is no step (unknown_step), or no step at all (no_step); an id ' +
          'this API cannot use (invalid_id: caseId, personId, company_id, provider_id or reference too long ' +
          'or holding other characters), named with its limit; or an id the provider does not know ' +
          '(unknown_provider_id), named',
      ),
      503: error(
        'Temporal did not answer in time, or the provider could not be asked about the ids (provider_unavailable); try again',
      ),
    },
    async handle({ body, identity, owner }, gateway) {
      const started = await gateway.start(body as StartRequest, identity.actor, owner);
      return { status: started.created ? 201 : 200, body: started };
    },
  },
  {
    method: 'get',
    path: '/v1/cases',
    operationId: 'listCases',
    summary: 'List cases, newest first, optionally by journey state, step, time waited, name, reference or assignee',
    description:
      "Reads the case file's read model, which every journey writes at each change: pass nextPageToken " +
      'back as pageToken (a page never repeats or skips a case written meanwhile). A key scoped to its own ' +
      'cases (CASE_API_SCOPED_KEYS) lists, searches and reads only the cases it started: to it, any other ' +
      'case is not found (404); other keys see every case.',
    role: 'origination',
    query: listCasesQuerySchema,
    responses: { ...common, 200: { description: 'One page of cases', schema: caseListSchema } },
    async handle({ query, owner }, gateway) {
      const q = query as z.output<typeof listCasesQuerySchema>;
      const filters = {
        startedBy: owner,
        sort: q.sort,
        step: q.step || undefined,
        stepState: q.stepState || undefined,
        name: q.name || undefined,
        reference: q.reference || undefined,
        assignee: q.assignee,
        waitingLongerThanMs: q.waitingLongerThanMinutes === undefined ? undefined : q.waitingLongerThanMinutes * 60_000,
      };
      const page = await gateway.list(
        q.state,
        q.pageSize,
        q.pageToken === undefined ? undefined : openPageToken(q.pageToken),
        filters,
      );
      return {
        status: 200,
        body: { ...page, nextPageToken: page.nextPageToken === null ? null : sealPageToken(page.nextPageToken) },
      };
    },
  },
  {
    method: 'post',
    path: '/v1/cases/retry-step',
    operationId: 'bulkRetryStep',
    summary: 'Retry one step on every running journey a visibility query matches (after a provider outage)',
    description:
      `A dry run by default: answers the matching running journeys (at most ${bulkRetryMaxCases}) with the ` +
      `step's state on each, and a requestId. With \`dryRun: false\` it sends Update retryStep to each, a few at ` +
      `a time, and answers a summary: accepted, refused (with the journey's message), failed. Each case's Update ` +
      `id is \`retry-step/<requestId>/<caseId>\`: sending the same requestId again retries only what was not ` +
      `accepted (accepted cases answer their first result). \`where\` is a Temporal visibility query (e.g. ` +
      `\`JourneyState = 'needs_attention' AND StartTime > '2025-01-01T00:00:00Z'\`); it is combined with the ` +
      `journeys of this deployment that are running.`,
    role: 'operator',
    body: bulkRetryStepRequestSchema,
    responses: {
      ...common,
      ...bodyRefusals,
      400: error(
        'The request is not valid (the message names each problem), or Temporal ' +
          'refused the visibility query (its message says why)',
      ),
      200: {
        description: 'The plan (dryRun: true) or the summary of the retries (dryRun: false)',
        schema: bulkRetryStepAnswerSchema,
      },
      422: error('More journeys match than one request takes: narrow the query'),
    },
    async handle({ body, identity }, gateway) {
      return {
        status: 200,
        body: await gateway.bulkRetryStep({
          ...(body as z.output<typeof bulkRetryStepRequestSchema>),
          actor: identity.actor,
        }),
      };
    },
  },
  {
    method: 'get',
    path: '/v1/cases/:caseId',
    operationId: 'getCase',
    summary: "The case's journey: state, steps with attempts, reasons, picklist candidates, applicant links",
    role: 'origination',
    params: caseParams,
    responses: { ...onCase, 200: { description: "The journey's status", schema: caseStatusSchema } },
    async handle({ params }, gateway) {
      return { status: 200, body: caseView(await gateway.status(params.caseId!)) };
    },
  },
  {
    method: 'post',
    path: operatorActions.retryStep.path,
    operationId: 'retryStep',
    audited: true,
    summary: 'Run a new attempt of a step (Update retryStep)',
    description:
      `The step key is one path segment: URL-encode its slash (identity-verification%2F<personId>). \`fresh: ` +
      `true\` asks the provider for a new purchase instead of continuing what it still holds for the step.` +
      `${idempotent}`,
    role: 'operator',
    params: stepParams,
    headers: idempotencyKeyHeaders,
    idempotent: operatorActions.retryStep.name,
    body: retryStepRequestSchema,
    responses: action,
    async handle({ params, body, identity }, gateway) {
      const { reason, fresh } = body as z.output<typeof retryStepRequestSchema>;
      return { status: 200, body: await gateway.retryStep(params.caseId!, params.step!, reason, identity, { fresh }) };
    },
  },
  {
    method: 'post',
    path: operatorActions.waiveStep.path,
    operationId: 'waiveStep',
    audited: true,
    summary: 'Waive a step with a reason (Update waiveStep)',
    description:
      `The step key is one path segment: URL-encode its slash ` + `(identity-verification%2F<personId>).${idempotent}`,
    role: 'operator',
    waives: true,
    params: stepParams,
    headers: idempotencyKeyHeaders,
    idempotent: operatorActions.waiveStep.name,
    body: waiveStepRequestSchema,
    responses: action,
    async handle({ params, body, identity }, gateway) {
      const { reason } = body as z.output<typeof waiveStepRequestSchema>;
      return { status: 200, body: await gateway.waiveStep(params.caseId!, params.step!, reason, identity) };
    },
  },
  {
    method: 'post',
    path: operatorActions.resolvePicklist.path,
    operationId: 'resolvePicklist',
    audited: true,
    summary: "Choose the company of the credit report's picklist (Update resolvePicklist)",
    description: idempotent.trim(),
    role: 'operator',
    params: caseParams,
    headers: idempotencyKeyHeaders,
    idempotent: operatorActions.resolvePicklist.name,
    body: resolvePicklistRequestSchema,
    responses: {
      ...action,
      422: error(
        'The Idempotency-Key was used on this case for another step (idempotency_key_reused), or the ' +
          'providerId is not an id a picklist offers (invalid_id: too long or holding other characters)',
      ),
    },
    async handle({ params, body, identity }, gateway) {
      const { providerId } = body as z.output<typeof resolvePicklistRequestSchema>;
      return { status: 200, body: await gateway.resolvePicklist(params.caseId!, providerId, identity) };
    },
  },
  {
    method: 'post',
    path: '/v1/cases/:caseId/cancel',
    operationId: 'cancelCase',
    audited: true,
    summary: 'Cancel the journey (signal cancel); it ends cancelled',
    role: 'operator',
    params: caseParams,
    body: cancelRequestSchema,
    responses: {
      ...onCase,
      ...bodyRefusals,
      202: { description: 'Cancel requested', schema: cancelResultSchema },
      409: closed,
    },
    async handle({ params, body, identity }, gateway) {
      const { reason } = body as z.output<typeof cancelRequestSchema>;
      await gateway.cancel(params.caseId!, reason, identity);
      return { status: 202, body: { caseId: params.caseId!, cancelRequested: true } };
    },
  },
  evidenceRefreshRoute,
  {
    method: 'post',
    path: '/v1/cases/:caseId/assign',
    operationId: 'assignCase',
    audited: true,
    summary: 'Assign the case to an operator (yourself or a colleague), or release it',
    description:
      "Ownership is kept in the case file's read model (the journey is not asked, so a closed case " +
      'can be assigned too) and audited with the caller as actor: the timeline shows who assigned the ' +
      'case to whom, when and why. `assignee: null` releases the case. Repeating a request changes ' +
      'nothing but the time and adds an audit entry.',
    role: 'operator',
    params: caseParams,
    body: assignCaseRequestSchema,
    responses: {
      ...onCase,
      ...bodyRefusals,
      200: { description: "The case's assignment now", schema: assignmentSchema },
      503: error('No case file is configured for this API process'),
    },
    async handle({ params, body, identity }, gateway) {
      const { assignee, reason } = body as z.output<typeof assignCaseRequestSchema>;
      return { status: 200, body: await gateway.assign(params.caseId!, assignee, identity, reason) };
    },
  },
  {
    method: 'get',
    path: '/v1/cases/:caseId/evidence',
    operationId: 'getEvidence',
    summary: 'What the case file holds for the case',
    description:
      'Every record the journey read from the provider, by step attempt: credit reports, IDV results, bank ' +
      'accounts with their transactions, insights, income and employer, document metadata (bytes are ' +
      'exported one by one with `journey evidence --export-document`).',
    role: 'origination',
    params: caseParams,
    responses: {
      ...onCase,
      200: { description: "The case file's records for the case", schema: evidenceSchema },
      503: error('Temporal did not answer in time, or no case file is configured for this API process'),
    },
    async handle({ params }, gateway) {
      return { status: 200, body: await gateway.evidence(params.caseId!) };
    },
  },
  {
    method: 'get',
    path: '/v1/cases/:caseId/timeline',
    operationId: 'getTimeline',
    summary:
      'What happened to the case: operator actions (who, what, why, the outcome), ' +
      'provider records and the events the LOS took, in time order',
    description:
      "Operator actions come from the append-only audit trail: each names its actor (the API key's name, or " +
      "the console's operator), the action, the step, the reason, the request id and the outcome (accepted, or " +
      "refused with the journey's message). Provider records are what the case file recorded (kind, ids and " +
      "status, no data). Events are those the LOS took, when it took them: the journey's (`notification`) and " +
      'the ones sent from the case file (`case_event`: reminders, expiries, SLA breaches, operator actions), ' +
      'by type, id and step, no data.',
    role: 'origination',
    params: caseParams,
    responses: {
      ...onCase,
      200: { description: "The case's timeline", schema: timelineSchema },
      503: error('Temporal did not answer in time, or no case file is configured for this API process'),
    },
    async handle({ params }, gateway) {
      return { status: 200, body: { caseId: params.caseId!, entries: await gateway.timeline(params.caseId!) } };
    },
  },
  {
    method: 'get',
    path: '/v1/cases/:caseId/events',
    operationId: 'listCaseEvents',
    summary: 'Every event of the case, with its id, in the order recorded: what a receiver that was down missed',
    description:
      'The events sent to CASE_EVENTS_URL (the webhooks of this document), each with its id (the `webhook-id` ' +
      'it is sent with) and when the LOS took it (null: not yet). A receiver that was down lists them and ' +
      'processes the ids it has not seen; the same ids arrive by webhook too, so it dedupes by id either way.',
    role: 'origination',
    params: caseParams,
    responses: {
      ...onCase,
      200: { description: "The case's events", schema: caseEventListSchema },
      503: error('Temporal did not answer in time, or no case file is configured for this API process'),
    },
    async handle({ params }, gateway) {
      const events = await gateway.events(params.caseId!);
      return {
        status: 200,
        body: {
          caseId: params.caseId!,
          events: events.map(({ id, type, version, occurredAt, data, deliveredAt }) => ({
            id,
            type,
            version,
            timestamp: occurredAt,
            data,
            deliveredAt,
          })),
        },
      };
    },
  },
  funnelRoute,
];
