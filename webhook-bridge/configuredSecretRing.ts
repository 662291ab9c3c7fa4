/**
 * The bridge's secret ring as its configuration says: the configured secrets, or the provider's
 * (read with its read-secret operation, the first read in the background: startLoading).
 */
import { ProviderClient } from '../activities/providerClient';
import type { ProviderConfig } from '../activities/providerConfig';
import { webhookManagement } from '../activities/webhookManagement';
import type { BridgeConfig } from './config';
import { SecretRing } from './secretRing';

export function configuredSecretRing(config: BridgeConfig, provider?: ProviderConfig): SecretRing {
  const [current, previous] = config.secrets;
  if (config.secretSource === 'config')
    return new SecretRing({ current, previous, previousValidUntil: config.previousSecretValidUntil });
  if (!provider) throw new Error('WEBHOOK_SECRET_SOURCE=provider needs the provider configuration (PROVIDER_*)');
  const management = webhookManagement(new ProviderClient(provider));
  const readFromProvider = () =>
    management.readSecret().then(
      (record) => record.secret,
      (error: { type?: string }) => {
        if (error.type === 'HTTP_404') return null;
        throw error;
      },
    );
  return new SecretRing({
    current,
    previous,
    previousValidUntil: config.previousSecretValidUntil,
    graceMs: config.rotationGraceMs,
    readFromProvider,
  });
}
