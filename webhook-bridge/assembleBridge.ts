/**
 * The bridge assembled from its configuration and a signaller of the caller's: secret ring,
 * metrics, spool, dead letters, the kept deliveries' sweep, the delivery recorder and the HTTP
 * app. startBridge gives it a signaller to Temporal; a benchmark one that answers at once.
 * Nothing listens yet: serveBridge does that.
 */
import type express from 'express';
import type { Logger } from 'pino';
import type { ProviderConfig } from '../activities/providerConfig';
import { createBridgeApp } from './app';
import {
  DEFAULT_DEAD_LETTER_MAX_BYTES,
  DEFAULT_KEPT_DELIVERY_RETENTION_DAYS,
  DEFAULT_SPOOL_MAX_BYTES,
  type BridgeConfig,
} from './config';
import { configuredSecretRing } from './configuredSecretRing';
import { DeadLetterStore } from './deadLetters';
import { DeliveryRecorder } from './deliveryRecorder';
import type { DurableFileSystem } from './durableFile';
import { sweepKeptDeliveries } from './keptDeliveries';
import { createBridgeMetrics, type BridgeMetrics } from './metrics';
import { workflowIdsOf, type RoutedDelivery } from './routeDelivery';
import type { SecretRing } from './secretRing';
import { checkHeldSignature } from './signatureCheck';
import { Spool } from './spool';
import { routeSpooled } from './spooledRouting';
import { TemporalHealth } from './temporalHealth';

const DAY_MS = 24 * 60 * 60 * 1000;

export interface BridgeParts {
  /** Signals a routed delivery's workflows; a rejection is judged as Temporal's refusal (spool, dead letter). */
  signal: (routed: RoutedDelivery) => Promise<void>;
  logger: Logger;
  /** Needed when the secret source is `provider`. */
  provider?: ProviderConfig;
  /** Whether Temporal answers (probed); one that only learns from signals when unset. */
  temporal?: TemporalHealth;
  /** Spool drain backoff (tests shorten it). */
  backoff?: { initialMs: number; maxMs: number };
  /** Backoff of the first read of the secret from the provider (tests shorten it). */
  secretRetry?: { initialMs: number; maxMs: number };
  /** The spool's file system (tests make a write or an fsync fail); node:fs when unset. */
  spoolFileSystem?: DurableFileSystem;
}

export interface AssembledBridge {
  app: express.Express;
  secrets: SecretRing;
  recorder: DeliveryRecorder;
  deadLetters: DeadLetterStore;
  metrics: BridgeMetrics;
  /**
   * Stops the secret's reads and the sweep, awaits `closeListener` (the listener stops accepting
   * and answers what is in flight, which may still be recorded), then stops the spool's drain.
   */
  stop(closeListener?: () => Promise<void>): Promise<void>;
}

export function assembleBridge(config: BridgeConfig, parts: BridgeParts): AssembledBridge {
  const { logger } = parts;
  const secrets = configuredSecretRing(config, parts.provider);
  const temporal = parts.temporal ?? new TemporalHealth();
  const deadLetters = new DeadLetterStore(config.spoolDir, {
    maxBytes: config.deadLetterMaxBytes ?? DEFAULT_DEAD_LETTER_MAX_BYTES,
  });
  const metrics = createBridgeMetrics({
    deadLetterCount: () => deadLetters.count,
    secretKnown: () => secrets.known,
    temporalState: () => temporal.current(),
  });
  const onRefreshError = (error: unknown) =>
    logger.warn({ err: String(error) }, 'could not read the webhook secret from the provider');
  const spool = spoolOf(config, parts, metrics);
  const stopSweep = sweepKeptDeliveries(
    config.spoolDir,
    config.keptDeliveryRetentionMs ?? DEFAULT_KEPT_DELIVERY_RETENTION_DAYS * DAY_MS,
    logger,
  );
  const recorder = new DeliveryRecorder({
    signal: parts.signal,
    spool,
    deadLetters,
    verifyHeld: (raw, signature) => checkHeldSignature(secrets, raw, signature, onRefreshError),
    spoolLimit: config.spoolLimit,
    spoolMaxBytes: config.spoolMaxBytes ?? DEFAULT_SPOOL_MAX_BYTES,
    heldLimit: config.heldLimit,
    metrics,
    logger,
    backoff: parts.backoff,
    temporal,
  });
  loadSecrets(secrets, recorder, parts);
  const app = createBridgeApp({
    path: config.path,
    maxBodyBytes: config.maxBodyBytes,
    secrets,
    requireSignature: config.requireSignature,
    recorder,
    metrics,
    logger,
  });
  return {
    app,
    secrets,
    recorder,
    deadLetters,
    metrics,
    async stop(closeListener) {
      stopSweep();
      secrets.stop();
      await closeListener?.();
      await recorder.stop();
    },
  };
}

function spoolOf(config: BridgeConfig, parts: BridgeParts, metrics: BridgeMetrics): Spool {
  return new Spool(config.spoolDir, {
    fileSystem: parts.spoolFileSystem,
    resourcesOf: (record) => workflowIdsOf(routeSpooled(record)),
    onQuarantine: (name, problem) => {
      metrics.spoolQuarantined.inc();
      parts.logger.error({ spoolFile: name, problem }, 'unreadable spool file moved to quarantine/');
    },
  });
}

/** Starts reading the provider's secret; deliveries kept while none was known are verified as soon as one is. */
function loadSecrets(secrets: SecretRing, recorder: DeliveryRecorder, parts: BridgeParts): void {
  secrets.onKnown(() => recorder.nudge());
  secrets.startLoading(parts.secretRetry ?? { initialMs: 1_000, maxMs: 30_000 }, (error, retryInMs) =>
    parts.logger.warn(
      { err: String(error), retryInMs },
      'could not read the webhook secret from the provider; deliveries are kept until it answers',
    ),
  );
}
