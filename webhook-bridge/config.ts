/** The bridge's configuration, read once and validated. */
import { z } from 'zod';
import { booleanVariable, ConfigurationError, parseEnvironment, portVariable } from '../config/environment';
import { dataPath } from '../config/projectRoot';

const logLevels = ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'] as const;
export type BridgeLogLevel = (typeof logLevels)[number];

/** Body bytes the spool holds at most (the files are about a third larger: Base64). */
export const DEFAULT_SPOOL_MAX_BYTES = 1024 * 1024 * 1024;
/** Bytes of dead-letter files at most. */
export const DEFAULT_DEAD_LETTER_MAX_BYTES = 256 * 1024 * 1024;
/** How long dead letters and quarantined spool files are kept (they hold event bodies with names). */
export const DEFAULT_KEPT_DELIVERY_RETENTION_DAYS = 30;

export const bridgeEnvironment = {
  /** The interface to listen on: loopback by default; `0.0.0.0` behind a load balancer. */
  BRIDGE_HOST: z
    .string()
    .regex(/^[A-Za-z0-9.:-]+$/, 'must be a host name or an IP address')
    .default('127.0.0.1'),
  BRIDGE_PORT: portVariable.default(8470),
  BRIDGE_PATH: z
    .string()
    .regex(/^\/[A-Za-z0-9/_-]*$/, 'must be a path starting with /')
    .default('/webhooks'),
  BRIDGE_SPOOL_DIR: z.string().min(1).default(dataPath('spool')),
  BRIDGE_MAX_BODY: z.coerce
    .number()
    .int('must be a whole number of bytes')
    .positive('must be a positive number of bytes')
    .default(1024 * 1024),
  WEBHOOK_SECRET: z.string().min(1).optional(),
  WEBHOOK_SECRET_PREVIOUS: z.string().min(1).optional(),
  /** Signatures are required unless this is set to true explicitly. */
  WEBHOOK_ALLOW_UNSIGNED: booleanVariable.default(false),
  /**
   * Redundant (signatures are required by default): `true` is accepted, `false` is an error that
   * names WEBHOOK_ALLOW_UNSIGNED.
   */
  WEBHOOK_REQUIRE_SIGNATURE: booleanVariable.optional(),
  /** When the previous secret stops being accepted (ISO 8601); unset: while it is configured. */
  WEBHOOK_SECRET_PREVIOUS_VALID_UNTIL: z.iso
    .datetime({ offset: true, error: 'must be an ISO 8601 date and time' })
    .optional(),
  /** `config` (the variables above) or `provider` (read with the provider's read-secret operation). */
  WEBHOOK_SECRET_SOURCE: z.enum(['config', 'provider'], { error: 'must be config or provider' }).default('config'),
  /** How long a secret replaced at the provider stays accepted (secret source `provider`). */
  WEBHOOK_ROTATION_GRACE_SECONDS: z.coerce.number().int().min(0, 'must be 0 or more seconds').default(3600),
  /** Beyond this many spooled deliveries the bridge answers 503 and /readyz fails. */
  BRIDGE_SPOOL_LIMIT: z.coerce.number().int().positive('must be a positive number').default(100_000),
  /** Beyond this many body bytes in the spool the bridge answers 503 and /readyz fails. */
  BRIDGE_SPOOL_MAX_BYTES: z.coerce
    .number({ error: 'must be a number of bytes' })
    .int()
    .min(1024, 'must be at least 1024 bytes')
    .default(DEFAULT_SPOOL_MAX_BYTES),
  /** A delivery Temporal refuses for good stays in the spool rather than take dead letters past this. */
  BRIDGE_DEAD_LETTER_MAX_BYTES: z.coerce
    .number({ error: 'must be a number of bytes' })
    .int()
    .min(1024, 'must be at least 1024 bytes')
    .default(DEFAULT_DEAD_LETTER_MAX_BYTES),
  /** Dead letters and quarantined spool files older than this are removed (at start, then hourly). */
  BRIDGE_DEAD_LETTER_RETENTION_DAYS: z.coerce
    .number({ error: 'must be a number of days' })
    .int()
    .positive('must be a positive number of days')
    .default(DEFAULT_KEPT_DELIVERY_RETENTION_DAYS),
  /** Deliveries held unverified while the provider's secret is not known yet (WEBHOOK_SECRET_SOURCE=provider). */
  BRIDGE_HELD_LIMIT: z.coerce
    .number({ error: 'must be a number of deliveries' })
    .int()
    .positive('must be a positive number')
    .default(1000),
  BRIDGE_HELD_MAX_BYTES: z.coerce
    .number({ error: 'must be a number of bytes' })
    .int()
    .min(1024, 'must be at least 1024 bytes')
    .default(64 * 1024 * 1024),
  /** How long Temporal gets to accept a delivery's signals before it is spooled. */
  BRIDGE_SIGNAL_TIMEOUT_MS: z.coerce
    .number()
    .int()
    .positive('must be a positive number of milliseconds')
    .default(3_000),
  /** `info` logs one line per accepted delivery; `warn` only what went wrong (refusals, spooling, dead letters). */
  BRIDGE_LOG_LEVEL: z.enum(logLevels, { error: `must be one of ${logLevels.join(', ')}` }).default('info'),
};

export interface BridgeConfig {
  /** `127.0.0.1` when unset. */
  host?: string;
  port: number;
  path: string;
  spoolDir: string;
  maxBodyBytes: number;
  /** Current first, then previous. */
  secrets: string[];
  previousSecretValidUntil?: number;
  secretSource: 'config' | 'provider';
  rotationGraceMs: number;
  /** False only with WEBHOOK_ALLOW_UNSIGNED=true. */
  requireSignature: boolean;
  spoolLimit: number;
  /** Body bytes the spool holds at most; DEFAULT_SPOOL_MAX_BYTES when unset. */
  spoolMaxBytes?: number;
  /** Bytes of dead letters at most; DEFAULT_DEAD_LETTER_MAX_BYTES when unset. */
  deadLetterMaxBytes?: number;
  /** How long dead letters and quarantined files are kept (ms); DEFAULT_KEPT_DELIVERY_RETENTION_DAYS when unset. */
  keptDeliveryRetentionMs?: number;
  /** Held deliveries (no secret known yet): at most this many, and this many bytes. */
  heldLimit?: { count: number; bytes: number };
  signalTimeoutMs: number;
  /** The bridge's own log (pino); `info` when unset. */
  logLevel?: BridgeLogLevel;
}

const DAY_MS = 24 * 60 * 60 * 1000;

export function readBridgeConfig(env: NodeJS.ProcessEnv = process.env): BridgeConfig {
  const c = parseEnvironment(bridgeEnvironment, env);
  if (c.WEBHOOK_SECRET_PREVIOUS && !c.WEBHOOK_SECRET) {
    throw new ConfigurationError(
      'Invalid configuration:\n  WEBHOOK_SECRET: required when WEBHOOK_SECRET_PREVIOUS is set',
    );
  }
  if (c.WEBHOOK_REQUIRE_SIGNATURE === false) {
    throw new ConfigurationError(
      'Invalid configuration:\n  WEBHOOK_REQUIRE_SIGNATURE: false is retired: signatures are required by ' +
        'default; set WEBHOOK_ALLOW_UNSIGNED=true to accept unsigned deliveries',
    );
  }
  if (c.WEBHOOK_REQUIRE_SIGNATURE && c.WEBHOOK_ALLOW_UNSIGNED) {
    throw new ConfigurationError(
      'Invalid configuration:\n  WEBHOOK_ALLOW_UNSIGNED: contradicts ' +
        'WEBHOOK_REQUIRE_SIGNATURE=true (unset one of them)',
    );
  }
  if (c.WEBHOOK_REQUIRE_SIGNATURE && !c.WEBHOOK_SECRET && c.WEBHOOK_SECRET_SOURCE === 'config') {
    throw new ConfigurationError(
      'Invalid configuration:\n  WEBHOOK_SECRET: required when ' +
        'WEBHOOK_REQUIRE_SIGNATURE is true (or set WEBHOOK_SECRET_SOURCE=provider)',
    );
  }
  return {
    host: c.BRIDGE_HOST,
    port: c.BRIDGE_PORT,
    path: c.BRIDGE_PATH,
    spoolDir: c.BRIDGE_SPOOL_DIR,
    maxBodyBytes: c.BRIDGE_MAX_BODY,
    secrets: [c.WEBHOOK_SECRET, c.WEBHOOK_SECRET_PREVIOUS].filter((s): s is string => Boolean(s)),
    previousSecretValidUntil: c.WEBHOOK_SECRET_PREVIOUS_VALID_UNTIL
      ? Date.parse(c.WEBHOOK_SECRET_PREVIOUS_VALID_UNTIL)
      : undefined,
    secretSource: c.WEBHOOK_SECRET_SOURCE,
    rotationGraceMs: c.WEBHOOK_ROTATION_GRACE_SECONDS * 1000,
    requireSignature: !c.WEBHOOK_ALLOW_UNSIGNED,
    spoolLimit: c.BRIDGE_SPOOL_LIMIT,
    spoolMaxBytes: c.BRIDGE_SPOOL_MAX_BYTES,
    deadLetterMaxBytes: c.BRIDGE_DEAD_LETTER_MAX_BYTES,
    keptDeliveryRetentionMs: c.BRIDGE_DEAD_LETTER_RETENTION_DAYS * DAY_MS,
    heldLimit: { count: c.BRIDGE_HELD_LIMIT, bytes: c.BRIDGE_HELD_MAX_BYTES },
    signalTimeoutMs: c.BRIDGE_SIGNAL_TIMEOUT_MS,
    logLevel: c.BRIDGE_LOG_LEVEL,
  };
}

/**
 * For a bridge run on its own (`npm run bridge`): with signatures required, it must have a way to
 * learn a secret, or it would refuse every delivery. The embedded stack sets the secret itself
 * once it has registered its webhook, so this is not part of readBridgeConfig.
 */
export function assertSecretSource(config: BridgeConfig): void {
  if (config.requireSignature && config.secretSource === 'config' && config.secrets.length === 0) {
    throw new ConfigurationError(
      'Invalid configuration:\n  WEBHOOK_SECRET: required (signatures are required): set it, or ' +
        'WEBHOOK_SECRET_SOURCE=provider, or WEBHOOK_ALLOW_UNSIGNED=true',
    );
  }
}
