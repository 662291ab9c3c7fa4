/**
 * The funnel's query as the API, the console and `journey funnel` take it: the days of the cases'
 * starts (UTC, both ends counted) and the period to group them by. Without `to`: today; without
 * `from`: twelve weeks up to `to`. A range runs forwards and spans at most two years, so an answer
 * stays small; each problem names its parameter.
 */
import { z } from 'zod';
import { funnelGroupings, type FunnelQuery } from './funnel';

const DAY_MS = 86_400_000;
export const FUNNEL_DEFAULT_DAYS = 84;
export const FUNNEL_MAX_DAYS = 731;

const day = z.iso.date('must be a date, YYYY-MM-DD');

export const funnelQueryFields = {
  from: day
    .optional()
    .meta({ description: 'The first day whose started cases count (UTC); default: 12 weeks up to `to`' }),
  to: day.optional().meta({ description: 'The last day whose started cases count (UTC); default: today' }),
  groupBy: z
    .enum(funnelGroupings)
    .default('week')
    .meta({ description: 'Group the cases by the day, week (from Monday) or month they started' }),
};

/** The range the parameters give, or the problem with it, by parameter. */
export function funnelRange(
  from: string | undefined,
  to: string | undefined,
  today = new Date(),
): { from: Date; until: Date } | { parameter: 'from' | 'to'; message: string } {
  const last = to ? new Date(`${to}T00:00:00Z`) : new Date(today.toISOString().slice(0, 10) + 'T00:00:00Z');
  const first = from ? new Date(`${from}T00:00:00Z`) : new Date(last.getTime() - (FUNNEL_DEFAULT_DAYS - 1) * DAY_MS);
  if (first > last) return { parameter: 'from', message: 'must not be after to' };
  const days = (last.getTime() - first.getTime()) / DAY_MS + 1;
  if (days > FUNNEL_MAX_DAYS)
    return { parameter: 'to', message: `the range spans ${days} days; at most ${FUNNEL_MAX_DAYS} are counted at once` };
  return { from: first, until: new Date(last.getTime() + DAY_MS) };
}

/** Adds the range's problems to a schema's issues, under the parameter's name. */
export function checkFunnelRange(value: { from?: string; to?: string }, ctx: z.RefinementCtx): void {
  const range = funnelRange(value.from, value.to);
  if ('parameter' in range) ctx.addIssue({ code: 'custom', path: [range.parameter], message: range.message });
}

export function funnelQueryOf(
  value: { from?: string; to?: string; groupBy: FunnelQuery['groupBy'] },
  startedBy?: string,
): FunnelQuery {
  const range = funnelRange(value.from, value.to);
  if ('parameter' in range) throw new Error(`${range.parameter}: ${range.message}`);
  return { ...range, groupBy: value.groupBy, startedBy };
}
