/**
 * Webhook management (spec §2.1, §2.2, §4.6). Not activities: set-up and operator calls made once
 * by whoever configures the integration (the stack launcher, an operator, the bridge's secret read).
 */
import { z } from 'zod';
import {
  eventTypesResponseSchema,
  webhookConfigurationSchemaFor,
  webhookRecordSchema,
  webhookSecretRecordSchema,
  webhookUpdateSchemaFor,
  type EventTypeGroup,
  type WebhookConfiguration,
  type WebhookRecord,
  type WebhookSecretRecord,
} from '../provider';
import type { ProviderClient } from './providerClient';
import { routes } from './routes';
import { validateInput } from './validateInput';

/** `localDevelopment` admits http:// loopback callbacks, for a simulator started in that mode. */
export function webhookManagement(client: ProviderClient, options: { localDevelopment?: boolean } = {}) {
  const configuration = webhookConfigurationSchemaFor(options.localDevelopment ?? false);
  const update = webhookUpdateSchemaFor(options.localDevelopment ?? false);
  return {
    createWebhook: async (config: WebhookConfiguration): Promise<WebhookRecord> =>
      client.call({
        route: routes.createWebhook,
        body: validateInput(configuration, config, 'webhook configuration'),
        schema: webhookRecordSchema,
      }),
    updateWebhook: async (webhookId: string, changes: Partial<WebhookConfiguration>): Promise<WebhookRecord> =>
      client.call({
        route: routes.updateWebhook,
        params: { webhookId },
        body: validateInput(update, changes, 'webhook update'),
        schema: webhookRecordSchema,
      }),
    eventTypes: (): Promise<EventTypeGroup[]> =>
      client.call({ route: routes.eventTypes, schema: eventTypesResponseSchema }),
    createSecret: (): Promise<WebhookSecretRecord> =>
      client.call({ route: routes.createWebhookSecret, schema: webhookSecretRecordSchema }),
    readSecret: (): Promise<WebhookSecretRecord> =>
      client.call({ route: routes.readWebhookSecret, schema: webhookSecretRecordSchema }),
    rotateSecret: (): Promise<WebhookSecretRecord> =>
      client.call({ route: routes.rotateWebhookSecret, schema: webhookSecretRecordSchema }),
    deleteSecret: async (): Promise<void> => {
      await client.call({ route: routes.deleteWebhookSecret, schema: z.null() });
    },
  };
}
