/** The bridge's safe defaults: signatures required unless allowed explicitly; the listener's host. */
import { assertSecretSource, readBridgeConfig } from '../../webhook-bridge/config';
import { ConfigurationError } from '../../config/environment';
import { errorOf } from '../support/errorOf';

test('signatures are required by default; only WEBHOOK_ALLOW_UNSIGNED=true lifts it', () => {
  expect(readBridgeConfig({}).requireSignature).toBe(true);
  expect(readBridgeConfig({ WEBHOOK_ALLOW_UNSIGNED: 'false' }).requireSignature).toBe(true);
  expect(readBridgeConfig({ WEBHOOK_ALLOW_UNSIGNED: 'true' }).requireSignature).toBe(false);
});

test('WEBHOOK_REQUIRE_SIGNATURE=true still works; false is retired with a message naming what to set', () => {
  expect(readBridgeConfig({ WEBHOOK_REQUIRE_SIGNATURE: 'true', WEBHOOK_SECRET: 's' }).requireSignature).toBe(true);
  const retired = errorOf(() => readBridgeConfig({ WEBHOOK_REQUIRE_SIGNATURE: 'false' }));
  expect(retired).toBeInstanceOf(ConfigurationError);
  expect(retired.message).toContain('WEBHOOK_REQUIRE_SIGNATURE');
  expect(retired.message).toContain('WEBHOOK_ALLOW_UNSIGNED=true');
  expect(
    errorOf(() =>
      readBridgeConfig({ WEBHOOK_REQUIRE_SIGNATURE: 'true', WEBHOOK_ALLOW_UNSIGNED: 'true', WEBHOOK_SECRET: 's' }),
    ).message,
  ).toContain('WEBHOOK_ALLOW_UNSIGNED');
});

test('a bridge run alone must have a way to learn a secret', () => {
  const error = errorOf(() => assertSecretSource(readBridgeConfig({})));
  expect(error).toBeInstanceOf(ConfigurationError);
  expect(error.message).toContain('WEBHOOK_SECRET');
  expect(() => assertSecretSource(readBridgeConfig({ WEBHOOK_SECRET: 's' }))).not.toThrow();
  expect(() => assertSecretSource(readBridgeConfig({ WEBHOOK_SECRET_SOURCE: 'provider' }))).not.toThrow();
  expect(() => assertSecretSource(readBridgeConfig({ WEBHOOK_ALLOW_UNSIGNED: 'true' }))).not.toThrow();
});

test('BRIDGE_HOST: loopback by default, any interface when asked, a bad value named', () => {
  expect(readBridgeConfig({}).host).toBe('127.0.0.1');
  expect(readBridgeConfig({ BRIDGE_HOST: '0.0.0.0' }).host).toBe('0.0.0.0');
  expect(errorOf(() => readBridgeConfig({ BRIDGE_HOST: 'not a host/' })).message).toContain('BRIDGE_HOST');
});
