/**
 * The codec server's wire format: Payloads in proto3 JSON, `{ payloads: [{ metadata: { k: base64 },
 * data: base64 }] }`. Proto3 JSON readers accept standard and URL-safe Base64, so both are admitted.
 * As in proto3 JSON, an absent (or null) field is its default: `{}` is an empty list of payloads,
 * which is what the Temporal CLI sends for a query without arguments. Unknown fields are refused,
 * as a proto3 JSON reader refuses them by default.
 */
import type { Payload } from '@temporalio/common';
import { z } from 'zod';

const base64 = z.string().regex(/^[A-Za-z0-9+/_-]*={0,2}$/, 'must be Base64');

const payloadSchema = z.object({
  metadata: z
    .record(z.string(), base64)
    .nullish()
    .transform((m) => m ?? undefined),
  data: base64.nullish().transform((d) => d ?? undefined),
});

export const payloadsBodySchema = z
  .object({
    payloads: z
      .array(payloadSchema)
      .max(10_000, 'at most 10000 payloads per request')
      .nullish()
      .transform((payloads) => payloads ?? []),
  })
  .strict();

export interface PayloadJson {
  metadata?: Record<string, string>;
  data?: string;
}

export function payloadFromJson(json: PayloadJson): Payload {
  const metadata = Object.fromEntries(
    Object.entries(json.metadata ?? {}).map(([k, v]) => [k, Buffer.from(v, 'base64')]),
  );
  return { metadata, data: Buffer.from(json.data ?? '', 'base64') };
}

export function payloadToJson(payload: Payload): PayloadJson {
  const metadata = Object.fromEntries(
    Object.entries(payload.metadata ?? {}).map(([k, v]) => [k, Buffer.from(v ?? []).toString('base64')]),
  );
  const data = Buffer.from(payload.data ?? []);
  return data.length ? { metadata, data: data.toString('base64') } : { metadata };
}
