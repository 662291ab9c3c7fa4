/**
 * The codec server's wire format: Payloads in proto3 JSON, `{ payloads: [{ metadata: { k: base64 },
 * data: base64 }] }`. Proto3 JSON readers accept standard and URL-safe Base64, so both are admitted.
 */
import type { Payload } from '@temporalio/common';
import { z } from 'zod';

const base64 = z.string().regex(/^[A-Za-z0-9+/_-]*={0,2}$/, 'must be Base64');

export const payloadsBodySchema = z.object({
  payloads: z
    .array(z.object({ metadata: z.record(z.string(), base64).optional(), data: base64.optional() }))
    .max(10_000, 'at most 10000 payloads per request'),
});

export type PayloadJson = z.infer<typeof payloadsBodySchema>['payloads'][number];

export function payloadFromJson(json: PayloadJson): Payload {
  const metadata = Object.fromEntries(Object.entries(json.metadata ?? {}).map(([k, v]) => [k, Buffer.from(v, 'base64')]));
  return { metadata, data: Buffer.from(json.data ?? '', 'base64') };
}

export function payloadToJson(payload: Payload): PayloadJson {
  const metadata = Object.fromEntries(Object.entries(payload.metadata ?? {}).map(([k, v]) => [k, Buffer.from(v ?? []).toString('base64')]));
  const data = Buffer.from(payload.data ?? []);
  return data.length ? { metadata, data: data.toString('base64') } : { metadata };
}
