/**
 * Starts the bridge: HTTP listener, secret ring, spool and a lazy Temporal connection (so the
 * bridge starts, and keeps answering 2xx, while Temporal is down). Used by `npm run bridge`,
 * `npm start` and the tests.
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client, Connection } from '@temporalio/client';
import pino, { type Logger } from 'pino';
import { ProviderClient } from '../activities/providerClient';
import type { ProviderConfig } from '../activities/providerConfig';
import { webhookManagement } from '../activities/webhookManagement';
import { dataConverterFor } from '../codec/dataConverter';
import { readPayloadKeys, type PayloadKeys } from '../codec/payloadKeys';
import { temporalConnectionOptions, type TemporalConfig } from '../worker/temporalConfig';
import { createBridgeApp } from './app';
import type { BridgeConfig } from './config';
import { DeliveryRecorder } from './deliveryRecorder';
import { createBridgeMetrics, type BridgeMetrics } from './metrics';
import { SecretRing } from './secretRing';
import { Spool } from './spool';
import { temporalSignaller } from './temporalSignaller';

export interface BridgeOptions {
  logger?: Logger;
  /** Needed when the secret source is `provider`. */
  provider?: ProviderConfig;
  /** Spool drain backoff (tests shorten it). */
  backoff?: { initialMs: number; maxMs: number };
  /** Payload encryption keys; `readPayloadKeys()` (environment or the embedded key file) when unset. */
  payloadKeys?: PayloadKeys;
}

export interface RunningBridge {
  url: string;
  secrets: SecretRing;
  recorder: DeliveryRecorder;
  metrics: BridgeMetrics;
  stop(): Promise<void>;
}

export async function startBridge(config: BridgeConfig, temporal: TemporalConfig, options: BridgeOptions = {}): Promise<RunningBridge> {
  const logger = options.logger ?? pino({ name: 'bridge' });
  const connection = Connection.lazy(temporalConnectionOptions(temporal));
  const dataConverter = dataConverterFor(options.payloadKeys ?? readPayloadKeys());
  const client = new Client({ connection, namespace: temporal.namespace, dataConverter });
  const signal = temporalSignaller(client, temporal.taskQueue);
  const secrets = await secretRing(config, options.provider);
  const metrics = createBridgeMetrics();
  const recorder = new DeliveryRecorder({
    signal: (routed) => connection.withDeadline(Date.now() + config.signalTimeoutMs, () => signal(routed)),
    spool: new Spool(config.spoolDir),
    spoolLimit: config.spoolLimit,
    metrics,
    logger,
    backoff: options.backoff,
  });
  const app = createBridgeApp({
    path: config.path,
    maxBodyBytes: config.maxBodyBytes,
    secrets,
    requireSignature: config.requireSignature,
    recorder,
    metrics,
    temporalReachable: () =>
      connection
        .withDeadline(Date.now() + 2_000, () => connection.workflowService.getSystemInfo({}))
        .then(() => true)
        .catch(() => false),
    logger,
  });
  const server: Server = await new Promise((resolve, reject) => {
    const s = app.listen(config.port, '127.0.0.1', () => resolve(s));
    s.once('error', reject);
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${config.path}`,
    secrets,
    recorder,
    metrics,
    async stop() {
      // close() stops accepting and waits for in-flight requests; then the drain loop stops.
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await recorder.stop();
      await connection.close().catch(() => undefined);
    },
  };
}

async function secretRing(config: BridgeConfig, provider?: ProviderConfig): Promise<SecretRing> {
  const [current, previous] = config.secrets;
  if (config.secretSource === 'config') return new SecretRing({ current, previous, previousValidUntil: config.previousSecretValidUntil });
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
  const ring = new SecretRing({ current, previous, previousValidUntil: config.previousSecretValidUntil, graceMs: config.rotationGraceMs, readFromProvider });
  await ring.load();
  return ring;
}
