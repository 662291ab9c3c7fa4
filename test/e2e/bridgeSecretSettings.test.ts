/**
 * The bridge's rotation settings, read from the environment as an operator sets them:
 * WEBHOOK_SECRET_PREVIOUS is accepted beside WEBHOOK_SECRET, until
 * WEBHOOK_SECRET_PREVIOUS_VALID_UNTIL when that is set; WEBHOOK_ROTATION_GRACE_SECONDS bounds how
 * long a secret replaced at the provider is still accepted. Real HTTP, real Temporal.
 */
import { randomUUID } from 'node:crypto';
import { Client, Connection } from '@temporalio/client';
import pino from 'pino';
import { ProviderClient } from '../../activities/providerClient';
import { webhookManagement } from '../../activities/webhookManagement';
import { startSimulator, type RunningSimulator } from '../../simulator/startSimulator';
import { readBridgeConfig } from '../../webhook-bridge/config';
import { startBridge, type BridgeOptions, type RunningBridge } from '../../webhook-bridge/startBridge';
import { testDirectory, testTemporalConfig } from '../setup/testEnvironment';
import { envelope, idvCompleted, post, sign } from '../support/deliveries';

const temporal = testTemporalConfig();
const started: string[] = [];
let connection: Connection;

beforeAll(async () => {
  connection = await Connection.connect({ address: temporal.address });
});

afterAll(async () => {
  const client = new Client({ connection, namespace: temporal.namespace });
  await Promise.all(
    started.map((id) =>
      client.workflow
        .getHandle(id)
        .terminate('test over')
        .catch(() => undefined),
    ),
  );
  await connection?.close();
});

/** Runs `use` against a bridge configured from `env`, and stops it. */
async function withBridge(
  env: NodeJS.ProcessEnv,
  use: (send: (secret: string) => Promise<number>) => Promise<void>,
  options: BridgeOptions = {},
): Promise<void> {
  const config = { ...readBridgeConfig(env), port: 0, spoolDir: testDirectory('spool-secrets') };
  const bridge: RunningBridge = await startBridge(config, temporal, { logger: pino({ level: 'silent' }), ...options });
  const send = async (secret: string) => {
    const requestId = randomUUID();
    started.push(`resource/idv/${requestId}`);
    const raw = envelope('IdentityVerification.Completed', idvCompleted(requestId));
    return (
      await post(bridge.url, raw, {
        'x-hmac-sha256-signature': sign(raw, secret),
        'x-batch-correlation-id': randomUUID(),
      })
    ).status;
  };
  try {
    await use(send);
  } finally {
    await bridge.stop();
  }
}

const hourFromNow = () => new Date(Date.now() + 3_600_000).toISOString();
const hourAgo = () => new Date(Date.now() - 3_600_000).toISOString();

test('WEBHOOK_SECRET_PREVIOUS is accepted beside WEBHOOK_SECRET, and nothing else is', async () => {
  await withBridge({ WEBHOOK_SECRET: 'current-secret', WEBHOOK_SECRET_PREVIOUS: 'previous-secret' }, async (send) => {
    expect([await send('current-secret'), await send('previous-secret'), await send('never-issued')]).toEqual([
      202, 202, 401,
    ]);
  });
});

test('WEBHOOK_SECRET_PREVIOUS_VALID_UNTIL: the previous secret is accepted before it, refused after it', async () => {
  const env = { WEBHOOK_SECRET: 'current-secret', WEBHOOK_SECRET_PREVIOUS: 'previous-secret' };
  await withBridge({ ...env, WEBHOOK_SECRET_PREVIOUS_VALID_UNTIL: hourFromNow() }, async (send) => {
    expect([await send('current-secret'), await send('previous-secret')]).toEqual([202, 202]);
  });
  await withBridge({ ...env, WEBHOOK_SECRET_PREVIOUS_VALID_UNTIL: hourAgo() }, async (send) => {
    expect([await send('current-secret'), await send('previous-secret')]).toEqual([202, 401]);
  });
});

describe('WEBHOOK_ROTATION_GRACE_SECONDS, with the secret read from the provider', () => {
  let sim: RunningSimulator;
  let provider: {
    baseUrl: string;
    authUrl: string;
    clientId: string;
    clientSecrets: string[];
    requestTimeoutMs: number;
  };

  beforeEach(async () => {
    sim = await startSimulator({
      port: 0,
      clientId: 'c',
      clientSecret: 's',
      seed: 3,
      tokenLifetimeSeconds: 3600,
      allowInsecureLoopbackCallbacks: true,
      processingDelayMs: 0,
    });
    provider = {
      baseUrl: sim.baseUrl,
      authUrl: sim.authUrl,
      clientId: 'c',
      clientSecrets: ['s'],
      requestTimeoutMs: 5_000,
    };
  });

  afterEach(async () => {
    await sim?.stop();
  });

  /** The statuses of deliveries signed with the original and the rotated secret, after a rotation. */
  async function afterRotation(graceSeconds: string): Promise<{ original: number; rotated: number }> {
    const management = webhookManagement(new ProviderClient(provider));
    const original = (await management.createSecret()).secret;
    let statuses = { original: 0, rotated: 0 };
    await withBridge(
      { WEBHOOK_SECRET_SOURCE: 'provider', WEBHOOK_ROTATION_GRACE_SECONDS: graceSeconds },
      async (send) => {
        expect(await send(original)).toBe(202);
        const rotated = (await management.rotateSecret()).secret;
        // The rotated secret first: its failed check is what makes the bridge read the provider again.
        const rotatedStatus = await send(rotated);
        statuses = { rotated: rotatedStatus, original: await send(original) };
      },
      { provider },
    );
    return statuses;
  }

  test('an hour of grace: the replaced secret is still accepted', async () => {
    expect(await afterRotation('3600')).toEqual({ rotated: 202, original: 202 });
  });

  test('no grace: the replaced secret is refused at once', async () => {
    expect(await afterRotation('0')).toEqual({ rotated: 202, original: 401 });
  });
});
