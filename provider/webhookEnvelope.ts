/**
 * The webhook delivery envelope of spec §6.2 and the parse of a whole delivery. Pure; the bridge
 * parses, and workflow code relies on its verdict (`parse`) instead of importing the schemas.
 */
import { z } from 'zod';
import { isKnownEventType, type KnownEventType } from './eventCatalogue';
import { eventDataSchemas, isoDateTime, type EventData } from './eventData';

/**
 * The envelope as sent. The AffordabilityInsights.Completed example of the spec names the send
 * time `sent_at_utc` instead of `datetime_sent`; either is accepted and read as `datetime_sent`.
 */
export const webhookEnvelopeSchema = z
  .object({
    webhook_id: z.string().min(1),
    webhook_name: z.string(),
    datetime_sent: isoDateTime.optional(),
    sent_at_utc: isoDateTime.optional(),
    external_ref: z.string().nullable().default(null),
    event_type: z.string().min(1),
    data: z.record(z.string(), z.unknown()),
  })
  .refine((e) => e.datetime_sent !== undefined || e.sent_at_utc !== undefined, {
    message: 'datetime_sent is required (or sent_at_utc, as in the AffordabilityInsights.Completed example)',
    path: ['datetime_sent'],
  })
  .transform(({ sent_at_utc, datetime_sent, ...rest }) => ({
    ...rest,
    datetime_sent: (datetime_sent ?? sent_at_utc) as string,
  }));

export type WebhookEnvelope = z.output<typeof webhookEnvelopeSchema>;

/** A known event with its typed data. */
export type KnownDelivery = {
  [K in KnownEventType]: { kind: 'known'; envelope: WebhookEnvelope; eventType: K; data: EventData[K] };
}[KnownEventType];

/** An event type the catalogue does not (yet) know: kept, never rejected (§6.1.5). */
export interface UnknownEventDelivery {
  kind: 'unknown-event-type';
  envelope: WebhookEnvelope;
  eventType: string;
}

/** A known event type whose `data` does not match its schema: kept for an operator. */
export interface InvalidDataDelivery {
  kind: 'invalid-data';
  envelope: WebhookEnvelope;
  eventType: KnownEventType;
  problems: string[];
}

export type ParsedDelivery = KnownDelivery | UnknownEventDelivery | InvalidDataDelivery;

export type EnvelopeParseResult = { ok: true; delivery: ParsedDelivery } | { ok: false; problems: string[] };

/** Describes zod issues as `path: message`, so an error names the field at fault. */
export function describeIssues(error: z.ZodError): string[] {
  return error.issues.map((i) => `${i.path.length ? i.path.join('.') : '(root)'}: ${i.message}`);
}

/** Parses an already JSON-decoded body. Never throws. */
export function parseDelivery(body: unknown): EnvelopeParseResult {
  const envelope = webhookEnvelopeSchema.safeParse(body);
  if (!envelope.success) return { ok: false, problems: describeIssues(envelope.error) };
  const { event_type: eventType, data } = envelope.data;
  if (!isKnownEventType(eventType)) {
    return { ok: true, delivery: { kind: 'unknown-event-type', envelope: envelope.data, eventType } };
  }
  const parsed = eventDataSchemas[eventType].safeParse(data);
  if (!parsed.success) {
    const problems = describeIssues(parsed.error).map((p) => `data.${p}`);
    return { ok: true, delivery: { kind: 'invalid-data', envelope: envelope.data, eventType, problems } };
  }
  return {
    ok: true,
    delivery: { kind: 'known', envelope: envelope.data, eventType, data: parsed.data } as KnownDelivery,
  };
}
