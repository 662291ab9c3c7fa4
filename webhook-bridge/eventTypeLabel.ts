/**
 * Metric labels come from a fixed set (the event type is untrusted input: a label per value would
 * let a sender grow the metric series without bound): the catalogue's event types, `other` for
 * any other event type, `invalid-envelope` for JSON that is not an envelope, `unknown` before the
 * body is parsed.
 */
import { isKnownEventType, knownEventTypes } from '../provider';

export const eventTypeLabels = [...knownEventTypes, 'other', 'invalid-envelope', 'unknown'] as const;
export type EventTypeLabel = (typeof eventTypeLabels)[number];

export function eventTypeLabel(eventType: string): EventTypeLabel {
  if (isKnownEventType(eventType)) return eventType;
  if (eventType === 'invalid-envelope' || eventType === 'unknown') return eventType;
  return 'other';
}
