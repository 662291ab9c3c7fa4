import { readProviderConfig } from '../../activities/providerConfig';
import { readSimulatorConfig } from '../../simulator/config';
import { readBridgeConfig } from '../../webhook-bridge/config';
import { ConfigurationError } from '../../config/environment';
import { errorOf } from '../support/errorOf';
import { readTemporalConfig } from '../../config/temporalConfig';

describe('configuration', () => {
  test('defaults serve the embedded stack', () => {
    expect(readTemporalConfig({})).toMatchObject({
      address: '127.0.0.1:7233',
      namespace: 'default',
      taskQueue: 'verification-journeys',
    });
    expect(readProviderConfig({})).toMatchObject({
      baseUrl: 'http://127.0.0.1:8480',
      authUrl: 'http://127.0.0.1:8480/oauth',
      clientSecrets: ['demo-secret'],
    });
    expect(readBridgeConfig({})).toMatchObject({
      port: 8470,
      path: '/webhooks',
      maxBodyBytes: 1048576,
      secrets: [],
      requireSignature: true,
      host: '127.0.0.1',
      logLevel: 'info',
    });
    expect(readSimulatorConfig({})).toMatchObject({ port: 8480, clientId: 'demo-client' });
  });

  test.each([
    ['TEMPORAL_ADDRESS', () => readTemporalConfig({ TEMPORAL_ADDRESS: 'no-port' })],
    ['PROVIDER_BASE_URL', () => readProviderConfig({ PROVIDER_BASE_URL: 'ftp://x' })],
    ['BRIDGE_PORT', () => readBridgeConfig({ BRIDGE_PORT: '70000' })],
    ['BRIDGE_MAX_BODY', () => readBridgeConfig({ BRIDGE_MAX_BODY: '-1' })],
    ['BRIDGE_LOG_LEVEL', () => readBridgeConfig({ BRIDGE_LOG_LEVEL: 'verbose' })],
    ['WEBHOOK_REQUIRE_SIGNATURE', () => readBridgeConfig({ WEBHOOK_REQUIRE_SIGNATURE: 'maybe' })],
    ['WEBHOOK_SECRET', () => readBridgeConfig({ WEBHOOK_REQUIRE_SIGNATURE: 'true' })],
    ['SIMULATOR_SEED', () => readSimulatorConfig({ SIMULATOR_SEED: 'abc' })],
    ['TEMPORAL_TLS_KEY', () => readTemporalConfig({ TEMPORAL_TLS_CERT: '/tmp/cert.pem' })],
    ['SIMULATOR_FAULTS', () => readSimulatorConfig({ SIMULATOR_FAULTS: '{not json' })],
    ['SIMULATOR_FAULTS', () => readSimulatorConfig({ SIMULATOR_FAULTS: '{"delivery_drop_rate": 3}' })],
    ['SIMULATOR_FAULTS', () => readSimulatorConfig({ SIMULATOR_FAULTS: '{"drop": 0.1}' })],
    ['SIMULATOR_PROCESSING_DELAY_MS', () => readSimulatorConfig({ SIMULATOR_PROCESSING_DELAY_MS: '-5' })],
  ])('a bad %s fails fast, naming the variable', (variable, read) => {
    const error = errorOf(read);
    expect(error).toBeInstanceOf(ConfigurationError);
    expect(error.message).toContain(variable);
  });

  test('never echoes a secret value', () => {
    const error = errorOf(() =>
      readProviderConfig({ PROVIDER_CLIENT_SECRET: 's3cr3t-value', PROVIDER_BASE_URL: 'nope' }),
    );
    expect(error.message).not.toContain('s3cr3t-value');
  });

  test('simulator fault rates come from SIMULATOR_FAULTS as JSON', () => {
    expect(
      readSimulatorConfig({ SIMULATOR_FAULTS: '{"delivery_drop_rate":0.25}', SIMULATOR_SEED: '3' }).faults,
    ).toMatchObject({ delivery_drop_rate: 0.25, api_5xx_rate: 0 });
  });

  test('two client secrets, primary first', () => {
    expect(
      readProviderConfig({ PROVIDER_CLIENT_SECRET: 'a', PROVIDER_CLIENT_SECRET_SECONDARY: 'b' }).clientSecrets,
    ).toEqual(['a', 'b']);
  });
});
