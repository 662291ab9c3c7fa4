/** The case API's route that renews a closed case's evidence on demand (client/evidenceRefresh.ts). */
import { z } from 'zod';
import { evidenceRefreshAnswerSchema } from '../client/evidenceRefresh';
import { evidenceRefreshRequestSchema, isUnknownItemIssue } from '../client/evidenceRefreshRequest';
import { evidenceRefreshAction } from '../client/journeyNames';
import { NUL_FREE_TEXT_PATTERN } from './nulCharacters';
import type { RouteSpec } from './routeSpec';
import { caseIdParam, errorBodySchema, idempotencyKeyHeaders } from './schemas';

const requestFields = evidenceRefreshRequestSchema.shape;
export const evidenceRefreshBodySchema = z
  .strictObject({ ...requestFields, reason: requestFields.reason.meta({ pattern: NUL_FREE_TEXT_PATTERN }) })
  .meta({ id: 'EvidenceRefreshRequest' });
const answerSchema = evidenceRefreshAnswerSchema.meta({ id: 'EvidenceRefresh' });

const error = (description: string) => ({ description, schema: errorBodySchema });

export const evidenceRefreshRoute: RouteSpec = {
  method: 'post',
  path: evidenceRefreshAction.path,
  operationId: 'refreshEvidence',
  audited: true,
  summary: "Renew a closed case's evidence: a new run that buys only the named items again",
  description:
    'For a closed case whose steps all completed or were waived: starts a new run of its journey in which ' +
    "the steps of the named items run as a new purchase (identityVerification: every person's; " +
    'bankTransactions: the banking step) and every other step is carried over, bought nothing again. A step ' +
    'computed from a renewed one is renewed with it unless it was waived (affordability with bankTransactions), ' +
    "as the journey does when a step's dependency runs again. The reason goes to the audit trail. Send an " +
    "`Idempotency-Key` header to make the request safe to repeat: while the run it started is the case's " +
    'latest, a repeat with the same key answers the first plan and starts nothing.',
  role: 'operator',
  params: z.object({ caseId: caseIdParam }),
  headers: idempotencyKeyHeaders,
  idempotent: evidenceRefreshAction.name,
  body: evidenceRefreshBodySchema,
  bodyProblem: { code: 'unknown_item', is: isUnknownItemIssue },
  responses: {
    400: error(
      'The request is not valid: the message names each problem (no reason, no item, an item named twice, an ' +
        'unknown field, a missing body, a body that is not JSON)',
    ),
    401: error('No or unknown API key'),
    403: error("The key's role may not do this"),
    404: error('No such case'),
    413: error('The body is larger than this API takes (CASE_API_MAX_BODY)'),
    415: error(
      'The body is not sent as application/json, or its charset or Content-Encoding is not one this API reads',
    ),
    429: error('Too many requests'),
    503: error('Temporal did not answer in time, or no case file is configured for this API process; try again'),
    202: {
      description:
        'The new run started: which steps it renews (with the need each buys) and which it carries over ' +
        "(a repeated Idempotency-Key: the first request's answer)",
      schema: answerSchema,
    },
    409: error(
      'The case is running (case_running: refresh is for closed cases; retry a step with fresh on a running ' +
        'one), or it closed with a step that did not complete or with nothing to carry over (case_unsettled: ' +
        '`journey retry` runs it again)',
    ),
    422: error(
      'An item that is no evidence kind (unknown_item), one the case never had (item_not_in_case), each ' +
        'named; or the Idempotency-Key was used on this case for a refresh of other items (idempotency_key_reused)',
    ),
  },
  async handle({ params, body, identity }, gateway) {
    const request = body as z.output<typeof evidenceRefreshBodySchema>;
    return { status: 202, body: await gateway.refreshEvidence(params.caseId!, request, identity) };
  },
};
