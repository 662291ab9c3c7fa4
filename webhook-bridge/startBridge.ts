/**
 * Starts the bridge: HTTP listener, secret ring, spool and a lazy Temporal connection (so the
 * bridge starts, and keeps answering 2xx, while Temporal is down). Used by `npm run bridge`,
 * `npm start` and the tests.
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import pino, { type Logger } from 'pino';
import { ProviderClient } from '../activities/providerClient';
import type { ProviderConfig } from '../activities/providerConfig';
import { webhookManagement } from '../activities/webhookManagement';
import { lazyTemporalClient } from '../client/temporalClient';
import type { PayloadKeys } from '../codec/payloadKeys';
import type { DurableFileSystem } from './durableFile';
import type { TemporalConfig } from '../config/temporalConfig';
import { createBridgeApp } from './app';
import {
  DEFAULT_DEAD_LETTER_MAX_BYTES,
  DEFAULT_KEPT_DELIVERY_RETENTION_DAYS,
  DEFAULT_SPOOL_MAX_BYTES,
  type BridgeConfig,
} from './config';
import { DeadLetterStore } from './deadLetters';
import { DeliveryRecorder } from './deliveryRecorder';
import { sweepKeptDeliveries } from './keptDeliveries';
import { routeSpooled } from './spooledRouting';
import { createBridgeMetrics, type BridgeMetrics } from './metrics';
import { workflowIdsOf, type RoutedDelivery } from './routeDelivery';
import { SecretRing } from './secretRing';
import { checkHeldSignature } from './signatureCheck';
import { Spool } from './spool';
import { TemporalHealth } from './temporalHealth';
import { temporalSignaller } from './temporalSignaller';

/** The probe's deadline: a Temporal that cannot answer `getSystemInfo` in this long is away. */
const PROBE_TIMEOUT_MS = 1_000;

export interface BridgeOptions {
  logger?: Logger;
  /** Needed when the secret source is `provider`. */
  provider?: ProviderConfig;
  /** Spool drain backoff (tests shorten it). */
  backoff?: { initialMs: number; maxMs: number };
  /** Payload encryption keys; `readPayloadKeys()` (environment or the embedded key file) when unset. */
  payloadKeys?: PayloadKeys;
  /** Backoff of the first read of the secret from the provider (tests shorten it). */
  secretRetry?: { initialMs: number; maxMs: number };
  /** The spool's file system (tests make a write or an fsync fail); node:fs when unset. */
  spoolFileSystem?: DurableFileSystem;
  /** Stands between the bridge and each signal, inside its deadline (tests make one workflow slow). */
  signalThrough?: (routed: RoutedDelivery, signal: () => Promise<void>) => Promise<void>;
}

export interface RunningBridge {
  url: string;
  secrets: SecretRing;
  recorder: DeliveryRecorder;
  deadLetters: DeadLetterStore;
  metrics: BridgeMetrics;
  stop(): Promise<void>;
}

export async function startBridge(
  config: BridgeConfig,
  temporal: TemporalConfig,
  options: BridgeOptions = {},
): Promise<RunningBridge> {
  const host = config.host ?? '127.0.0.1';
  const logger = options.logger ?? pino({ name: 'bridge', level: config.logLevel ?? 'info' });
  const { client, connection } = lazyTemporalClient(temporal, options.payloadKeys);
  const signal = temporalSignaller(client, temporal.taskQueue);
  const secrets = secretRing(config, options.provider);
  const deadLetters = new DeadLetterStore(config.spoolDir, {
    maxBytes: config.deadLetterMaxBytes ?? DEFAULT_DEAD_LETTER_MAX_BYTES,
  });
  const health = new TemporalHealth({
    probe: async () => {
      await connection.withDeadline(Date.now() + PROBE_TIMEOUT_MS, () => connection.workflowService.getSystemInfo({}));
    },
  });
  health.subscribe((state) =>
    state === 'reachable'
      ? logger.info('Temporal answers')
      : logger.warn('Temporal does not answer; deliveries are spooled until it does'),
  );
  const metrics = createBridgeMetrics({
    deadLetterCount: () => deadLetters.count,
    secretKnown: () => secrets.known,
    temporalState: () => health.current(),
  });
  const onRefreshError = (error: unknown) =>
    logger.warn({ err: String(error) }, 'could not read the webhook secret from the provider');
  const spool = new Spool(config.spoolDir, {
    fileSystem: options.spoolFileSystem,
    resourcesOf: (record) => workflowIdsOf(routeSpooled(record)),
    onQuarantine: (name, problem) => {
      metrics.spoolQuarantined.inc();
      logger.error({ spoolFile: name, problem }, 'unreadable spool file moved to quarantine/');
    },
  });
  const stopSweep = sweepKeptDeliveries(
    config.spoolDir,
    config.keptDeliveryRetentionMs ?? DEFAULT_KEPT_DELIVERY_RETENTION_DAYS * 24 * 60 * 60 * 1000,
    logger,
  );
  const recorder = new DeliveryRecorder({
    signal: (routed) =>
      connection.withDeadline(Date.now() + config.signalTimeoutMs, () =>
        options.signalThrough ? options.signalThrough(routed, () => signal(routed)) : signal(routed),
      ),
    spool,
    deadLetters,
    verifyHeld: (raw, signature) => checkHeldSignature(secrets, raw, signature, onRefreshError),
    spoolLimit: config.spoolLimit,
    spoolMaxBytes: config.spoolMaxBytes ?? DEFAULT_SPOOL_MAX_BYTES,
    heldLimit: config.heldLimit,
    metrics,
    logger,
    backoff: options.backoff,
    temporal: health,
  });
  // Deliveries kept while no secret was known are verified (and signalled) as soon as one is.
  secrets.onKnown(() => recorder.nudge());
  secrets.startLoading(options.secretRetry ?? { initialMs: 1_000, maxMs: 30_000 }, (error, retryInMs) =>
    logger.warn(
      { err: String(error), retryInMs },
      'could not read the webhook secret from the provider; deliveries are kept until it answers',
    ),
  );
  const app = createBridgeApp({
    path: config.path,
    maxBodyBytes: config.maxBodyBytes,
    secrets,
    requireSignature: config.requireSignature,
    recorder,
    metrics,
    logger,
  });
  const server: Server = await new Promise<Server>((resolve, reject) => {
    const s = app.listen(config.port, host, () => resolve(s));
    s.once('error', reject);
  }).catch(async (error: unknown) => {
    stopSweep();
    secrets.stop();
    await recorder.stop();
    await health.settled();
    await connection.close().catch(() => undefined);
    throw error;
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${reachableHost(host)}:${port}${config.path}`,
    secrets,
    recorder,
    deadLetters,
    metrics,
    async stop() {
      stopSweep();
      secrets.stop();
      // close() stops accepting and waits for in-flight requests; then the drain loop stops.
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await recorder.stop();
      await health.settled();
      await connection.close().catch(() => undefined);
    },
  };
}

/** A URL this machine can reach the bridge at (a wildcard address is not one). */
function reachableHost(host: string): string {
  if (host === '0.0.0.0' || host === '::') return '127.0.0.1';
  return host.includes(':') ? `[${host}]` : host;
}

/** The ring; with the provider as source, its first read runs in the background (startLoading). */
function secretRing(config: BridgeConfig, provider?: ProviderConfig): SecretRing {
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
