/**
 * The Temporal connection the Temporal way (`@temporalio/envconfig`): a `temporal.toml` profile, or
 * environment variables alone, the same ones the Temporal CLI reads; and it really connects.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Connection } from '@temporalio/client';
import { ConfigurationError } from '../../config/environment';
import { errorOf } from '../support/errorOf';
import { readTemporalConfig, temporalConnectionOptions } from '../../config/temporalConfig';

const dir = mkdtempSync(path.join(os.tmpdir(), 'temporal-profile-'));
const file = (name: string, text: string) => {
  const at = path.join(dir, name);
  writeFileSync(at, text);
  return at;
};
/** An environment with no config file of the user's in reach. */
const isolated = (vars: Record<string, string>) => ({ HOME: dir, ...vars });

test('environment variables alone: address, namespace, API key (TLS on), task queue', () => {
  const config = readTemporalConfig(
    isolated({
      TEMPORAL_ADDRESS: 'temporal.example.test:7233',
      TEMPORAL_NAMESPACE: 'lending',
      TEMPORAL_API_KEY: 'key-1',
      TEMPORAL_TASK_QUEUE: 'q',
    }),
  );
  expect(config).toMatchObject({
    address: 'temporal.example.test:7233',
    namespace: 'lending',
    taskQueue: 'q',
    apiKey: 'key-1',
  });
  expect(temporalConnectionOptions(config)).toMatchObject({
    address: 'temporal.example.test:7233',
    apiKey: 'key-1',
    tls: true,
  });
});

test('a temporal.toml profile, with TLS server CA and server name; the environment overrides the profile', () => {
  const ca = file('ca.pem', '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n');
  const toml = file(
    'temporal.toml',
    `[profile.staging]\naddress = "staging.example.test:7233"\nnamespace = "staging-ns"\n\n[profile.staging.tls]\nserver_name = "frontend.staging"\nserver_ca_cert_path = "${ca}"\n`,
  );
  const config = readTemporalConfig(isolated({ TEMPORAL_CONFIG_FILE: toml, TEMPORAL_PROFILE: 'staging' }));
  expect(config).toMatchObject({ address: 'staging.example.test:7233', namespace: 'staging-ns' });
  expect(config.tls).toMatchObject({
    serverNameOverride: 'frontend.staging',
    serverRootCACertificate: expect.anything(),
  });
  expect(
    readTemporalConfig(
      isolated({ TEMPORAL_CONFIG_FILE: toml, TEMPORAL_PROFILE: 'staging', TEMPORAL_NAMESPACE: 'other' }),
    ).namespace,
  ).toBe('other');
});

test('a profile file that is not TOML fails fast, naming the file', () => {
  const broken = file('broken.toml', '[profile.default\naddress = ');
  const error = errorOf(() => readTemporalConfig(isolated({ TEMPORAL_CONFIG_FILE: broken })));
  expect(error).toBeInstanceOf(ConfigurationError);
  expect(error.message).toContain(broken);
});

test('a profile reaches the real server', async () => {
  const address = process.env.TEST_TEMPORAL_ADDRESS as string;
  const toml = file('local.toml', `[profile.local]\naddress = "${address}"\nnamespace = "default"\n`);
  const config = readTemporalConfig(isolated({ TEMPORAL_CONFIG_FILE: toml, TEMPORAL_PROFILE: 'local' }));
  const connection = await Connection.connect(temporalConnectionOptions(config));
  try {
    const described = await connection.workflowService.describeNamespace({ namespace: config.namespace });
    expect(described.namespaceInfo?.name).toBe('default');
  } finally {
    await connection.close();
  }
});
