/**
 * The event catalogue of spec §6.4 as data. Pure (workflow code reads the types only: the
 * response schemas below are zod's, which the workflow bundle does not hold).
 *
 * The catalogue is not exhaustive (§6.1.5, §9): anything not listed here is an unknown event
 * type and must be kept, never rejected.
 */

import { z } from 'zod';

export const eventGroups = [
  {
    event_group_name: 'Document Lifecycle',
    parents: [
      {
        event_name: 'DocumentProcessing.Completed',
        children: [
          'BankStatementProcessing.Completed',
          'PayslipProcessing.Completed',
          'SA302Processing.Completed',
          'TaxOverviewProcessing.Completed',
        ],
      },
    ],
  },
  {
    event_group_name: 'Banking',
    parents: [
      {
        event_name: 'BankingProcessing.Completed',
        children: ['OpenBankingProcessing.Completed', 'BankStatementProcessing.Completed'],
      },
    ],
  },
  {
    event_group_name: 'Identity Verification',
    parents: [
      { event_name: 'IdentityVerification.Completed', children: [] },
      { event_name: 'IdentityVerification.Expired', children: [] },
    ],
  },
  {
    event_group_name: 'Insights',
    parents: [
      { event_name: 'IncomeEmployerInsights.Completed', children: [] },
      { event_name: 'AffordabilityInsights.Completed', children: [] },
    ],
  },
] as const;

type Group = (typeof eventGroups)[number];
type Parent = Group['parents'][number];
export type ParentEventType = Parent['event_name'];
export type KnownEventType = ParentEventType | Parent['children'][number];

export const knownEventTypes: readonly KnownEventType[] = [
  ...new Set(eventGroups.flatMap((g) => g.parents.flatMap((p) => [p.event_name, ...p.children]))),
];

export function isKnownEventType(eventType: string): eventType is KnownEventType {
  return (knownEventTypes as readonly string[]).includes(eventType);
}

/** The parents an event type sits under; `BankStatementProcessing.Completed` has two. */
export function parentsOf(eventType: string): ParentEventType[] {
  return eventGroups.flatMap((g) =>
    g.parents.filter((p) => (p.children as readonly string[]).includes(eventType)).map((p) => p.event_name),
  );
}

/**
 * The webhook event types one occurrence of `eventType` is delivered under (§6.1.4): the event
 * itself and each of its parents. A webhook gets one delivery per subscribed type in this list.
 */
export function deliveryTypesFor(eventType: string): string[] {
  return [eventType, ...parentsOf(eventType)];
}

/** The response of "get event types" (§4.6): groups of entries, each with child entries. */
export interface EventTypeEntry {
  event_name: string;
  event_types: EventTypeEntry[];
}
export interface EventTypeGroup {
  event_group_name: string;
  event_types: EventTypeEntry[];
}

export const eventTypeEntrySchema: z.ZodType<EventTypeEntry> = z.lazy(() =>
  z.object({ event_name: z.string().min(1), event_types: z.array(eventTypeEntrySchema) }),
);
export const eventTypesResponseSchema = z.array(
  z.object({ event_group_name: z.string().min(1), event_types: z.array(eventTypeEntrySchema) }),
);

export function eventTypesTree(): EventTypeGroup[] {
  return eventGroups.map((g) => ({
    event_group_name: g.event_group_name,
    event_types: g.parents.map((p) => ({
      event_name: p.event_name,
      event_types: p.children.map((c) => ({ event_name: c, event_types: [] })),
    })),
  }));
}
