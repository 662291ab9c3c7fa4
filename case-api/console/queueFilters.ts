/**
 * The queue page's filters, from its GET form's query string: state, step state, owner, a name to
 * search, the lender's reference, how long a case has waited, the sort and the page's cursor. Whatever is not valid is
 * dropped (a filter form is no API: an odd value shows every case rather than an error page).
 */
import { z } from 'zod';
import type { JourneyListFilters } from '../../client/journeyOperations';
import { stepStates } from '../../client/stepState';
import { journeyStates } from '../schemas';

export const waitingChoices = [15, 60, 240, 1440] as const;
/** The owner filter's special values; any other value is an operator's name. */
export const NOBODY = '-';

const optional = <T extends z.ZodType>(schema: T) => schema.optional().catch(undefined);

const querySchema = z.object({
  state: optional(z.enum(journeyStates)),
  stepState: optional(z.enum(stepStates)),
  owner: optional(z.string().trim().min(1).max(200)),
  name: optional(z.string().trim().min(1).max(200)),
  reference: optional(z.string().trim().min(1).max(200)),
  waiting: optional(z.coerce.number().int().min(1).max(525_600)),
  sort: z.enum(['newest', 'oldest', 'deadline']).catch('newest'),
  cursor: optional(z.string().regex(/^[A-Za-z0-9_-]{1,2048}$/)),
});
export type QueueFilters = z.output<typeof querySchema>;

export const queueFiltersOf = (query: unknown): QueueFilters =>
  querySchema.parse(typeof query === 'object' && query ? query : {});

/** What the read model's list takes. */
export function listFiltersOf(f: QueueFilters): JourneyListFilters & { state?: string } {
  return {
    sort: f.sort,
    state: f.state || undefined,
    stepState: f.stepState || undefined,
    name: f.name || undefined,
    reference: f.reference || undefined,
    assignee: f.owner ? (f.owner === NOBODY ? '' : f.owner) : undefined,
    waitingLongerThanMs: f.waiting ? f.waiting * 60_000 : undefined,
  };
}

/** The page's own URL with these filters (and another cursor). */
export function queueHref(f: QueueFilters, cursor?: string): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries({ ...f, cursor }))
    if (value !== undefined && !(key === 'sort' && value === 'newest')) params.set(key, String(value));
  const query = params.toString();
  return `/console${query ? `?${query}` : ''}`;
}
