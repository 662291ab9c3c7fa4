/** Webhook configuration (spec §2.1) and the webhook secret record (§2.2). */
import { z } from 'zod';
import { isoDateTime } from './eventData';

export const webhookNameSchema = z
  .string({ error: 'webhook_name is required' })
  .min(1, 'webhook_name must not be empty')
  .max(50, 'webhook_name must be at most 50 characters');

const CALLBACK_URL_ERROR = 'webhook_callback_url must be a valid HTTPS URL';
const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

export const httpsUrlSchema = z.url({ protocol: /^https$/, error: CALLBACK_URL_ERROR });

/**
 * The callback URL rule of §2.1 (HTTPS). `localDevelopment` also admits `http://` to a loopback
 * address: the simulator's explicit local-development switch, never the provider's behaviour.
 */
export function callbackUrlSchema(localDevelopment: boolean) {
  if (!localDevelopment) return httpsUrlSchema;
  return z.string().refine((value) => {
    if (!URL.canParse(value)) return false;
    const url = new URL(value);
    return url.protocol === 'https:' || (url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname));
  }, CALLBACK_URL_ERROR);
}

export const webhookEventTypesSchema = z
  .array(z.string().min(1), { error: 'event_types is required' })
  .min(1, 'event_types needs at least one event type');

export function webhookConfigurationSchemaFor(localDevelopment: boolean) {
  return z.object({
    webhook_name: webhookNameSchema,
    webhook_callback_url: callbackUrlSchema(localDevelopment),
    event_types: webhookEventTypesSchema,
    external_ref: z.string().nullable().optional(),
  });
}
export const webhookConfigurationSchema = webhookConfigurationSchemaFor(false);
export type WebhookConfiguration = z.infer<typeof webhookConfigurationSchema>;

/** Update: all four fields may change (§2.1); each is optional. */
export const webhookUpdateSchemaFor = (localDevelopment: boolean) =>
  webhookConfigurationSchemaFor(localDevelopment).partial();
export const webhookUpdateSchema = webhookUpdateSchemaFor(false);

/** The stored record as returned (only `webhook_id` beyond the four fields is assumed). */
export const webhookRecordSchema = z.object({
  webhook_id: z.guid(),
  webhook_name: z.string(),
  webhook_callback_url: z.string(),
  event_types: z.array(z.string()),
  external_ref: z.string().nullable(),
});
export type WebhookRecord = z.infer<typeof webhookRecordSchema>;

/** §2.2: one global secret; `date_updated` is shown, `secret` (the value) is assumed. */
export const webhookSecretRecordSchema = z.object({
  secret: z.string().min(1),
  date_updated: isoDateTime,
});
export type WebhookSecretRecord = z.infer<typeof webhookSecretRecordSchema>;
