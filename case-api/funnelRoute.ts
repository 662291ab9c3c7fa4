/**
 * The case API's funnel (case-file/funnel.ts): where applicants drop off, from the case file's read
 * model and audit trail, never from Temporal. JSON, or CSV with `Accept: text/csv` or `format=csv`.
 */
import { z } from 'zod';
import { funnelSchema, readFunnel } from '../case-file/funnel';
import { funnelCsv } from '../case-file/funnelCsv';
import { funnelQueryFields, funnelRange } from '../case-file/funnelQuery';
import { inTransaction } from '../case-file/transaction';
import { HttpError } from './httpError';
import type { RouteSpec } from './routeSpec';
import { errorBodySchema } from './schemas';

export const funnelQuerySchema = z.object({
  ...funnelQueryFields,
  format: z
    .enum(['json', 'csv'])
    .optional()
    .meta({ description: 'csv: the same figures as CSV (as Accept: text/csv)' }),
});

const error = (description: string) => ({ description, schema: errorBodySchema });

export const funnelRoute: RouteSpec = {
  method: 'get',
  path: '/v1/analytics/funnel',
  operationId: 'getFunnel',
  summary:
    'Where applicants drop off: per step, cases reached, completed, waived, expired, needing attention, and time in it',
  description:
    'Over the cases started from `from` to `to` (UTC days), grouped by the day, week or month they started, ' +
    'and over the whole range (`total`): per step kind, how many reached it, completed it, had it waived, saw ' +
    'it expire or need an operator, and are unfinished; the median and 90th percentile of the time in the step ' +
    '(from reached to completed or waived, or to the case closing), split into waiting on the applicant (a link ' +
    "to open), on an operator (an attention state) and on the provider (the rest); and operators' time from a " +
    'step needing attention to the first audit entry on it. Times in seconds, null without a figure. Read from ' +
    "the case file's read model: no Temporal call. `Accept: text/csv` or `format=csv` answers CSV. A key " +
    'scoped to its own cases counts only those.',
  role: 'origination',
  query: funnelQuerySchema,
  responses: {
    400: error('A parameter is not valid: the message names it (from, to, groupBy, format, or an unknown one)'),
    422: error(
      'from and to make no range this counts (invalid_range): from after to, or more than 731 days; the ' +
        'message names the parameter',
    ),
    401: error('No or unknown API key'),
    403: error("The key's role may not do this"),
    429: error('Too many requests'),
    200: { description: 'The funnel', schema: funnelSchema.meta({ id: 'Funnel' }), csv: true },
    503: error('No case file is configured for this API process'),
  },
  async handle({ query, owner, accepts }, gateway) {
    const q = query as z.output<typeof funnelQuerySchema>;
    // Each parameter is well formed; whether they make a range only the pair can tell.
    const range = funnelRange(q.from, q.to);
    if ('parameter' in range)
      throw new HttpError(422, 'invalid_range', `Invalid query: ${range.parameter}: ${range.message}`);
    const pool = gateway.caseFilePool;
    if (!pool)
      throw new HttpError(
        503,
        'unavailable',
        'The case file is not configured for this API process (set DATABASE_URL)',
      );
    const funnel = await inTransaction(pool, (c) => readFunnel(c, { ...range, groupBy: q.groupBy, startedBy: owner }));
    const csv =
      q.format === 'csv' || (q.format === undefined && accepts?.(['application/json', 'text/csv']) === 'text/csv');
    return csv ? { status: 200, body: funnelCsv(funnel), mediaType: 'text/csv' } : { status: 200, body: funnel };
  },
};
