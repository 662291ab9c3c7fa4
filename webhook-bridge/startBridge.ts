/**
 * Starts the bridge: the parts (assembleBridge) with a signaller to Temporal over a lazy
 * connection (so the bridge starts, and keeps answering 2xx, while Temporal is down) and a probe
 * of whether it answers, listening on the configured address (serveBridge). Used by
 * `npm run bridge`, `npm start` and the tests.
 */
import pino, { type Logger } from 'pino';
import { lazyTemporalClient, type TemporalClient } from '../client/temporalClient';
import type { PayloadKeys } from '../codec/payloadKeys';
import type { TemporalConfig } from '../config/temporalConfig';
import { assembleBridge, type AssembledBridge, type BridgeParts } from './assembleBridge';
import type { BridgeConfig } from './config';
import type { RoutedDelivery } from './routeDelivery';
import { serveBridge } from './serveBridge';
import { TemporalHealth } from './temporalHealth';
import { temporalSignaller } from './temporalSignaller';

/** The probe's deadline: a Temporal that cannot answer `getSystemInfo` in this long is away. */
const PROBE_TIMEOUT_MS = 1_000;

export interface BridgeOptions extends Pick<BridgeParts, 'provider' | 'backoff' | 'secretRetry' | 'spoolFileSystem'> {
  logger?: Logger;
  /** Payload encryption keys; `readPayloadKeys()` (environment or the embedded key file) when unset. */
  payloadKeys?: PayloadKeys;
  /** Stands between the bridge and each signal, inside its deadline (tests make one workflow slow). */
  signalThrough?: (routed: RoutedDelivery, signal: () => Promise<void>) => Promise<void>;
}

export interface RunningBridge extends Pick<AssembledBridge, 'secrets' | 'recorder' | 'deadLetters' | 'metrics'> {
  url: string;
  stop(): Promise<void>;
}

export async function startBridge(
  config: BridgeConfig,
  temporal: TemporalConfig,
  options: BridgeOptions = {},
): Promise<RunningBridge> {
  const logger = options.logger ?? pino({ name: 'bridge', level: config.logLevel ?? 'info' });
  const { client, connection } = lazyTemporalClient(temporal, options.payloadKeys);
  const signal = temporalSignaller(client, temporal.taskQueue);
  const health = temporalHealth(connection, logger);
  const bridge = assembleBridge(config, {
    signal: (routed) =>
      connection.withDeadline(Date.now() + config.signalTimeoutMs, () =>
        options.signalThrough ? options.signalThrough(routed, () => signal(routed)) : signal(routed),
      ),
    logger,
    provider: options.provider,
    temporal: health,
    backoff: options.backoff,
    secretRetry: options.secretRetry,
    spoolFileSystem: options.spoolFileSystem,
  });
  const closeTemporal = async () => {
    await health.settled();
    await connection.close().catch(() => undefined);
  };
  const served = await serveBridge(bridge, config).catch(async (error: unknown) => {
    await closeTemporal();
    throw error;
  });
  return {
    url: served.url,
    secrets: bridge.secrets,
    recorder: bridge.recorder,
    deadLetters: bridge.deadLetters,
    metrics: bridge.metrics,
    async stop() {
      await served.stop();
      await closeTemporal();
    },
  };
}

/** Whether Temporal answers, probed with `getSystemInfo` under a deadline; each change is logged. */
function temporalHealth(connection: TemporalClient['connection'], logger: Logger): TemporalHealth {
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
  return health;
}
