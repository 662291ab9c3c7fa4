/**
 * Where workers and clients find Temporal, the Temporal way: `@temporalio/envconfig`
 * reads a `temporal.toml` profile (`TEMPORAL_CONFIG_FILE`, `TEMPORAL_PROFILE`, or the CLI's default
 * file) and the variables the Temporal CLI reads (`TEMPORAL_ADDRESS`, `TEMPORAL_NAMESPACE`,
 * `TEMPORAL_API_KEY`, `TEMPORAL_TLS_*` with server CA and server name, `TEMPORAL_GRPC_META_*`), so
 * one profile serves the CLI, the worker, the bridge and the API. The task queue is the project's
 * own (`TEMPORAL_TASK_QUEUE`). Shared by every process and the CLI.
 */
import { loadClientConnectConfig } from '@temporalio/envconfig';
import type { TLSConfig } from '@temporalio/common/lib/internal-non-workflow';
import { z } from 'zod';
import { ConfigurationError, parseEnvironment } from './environment';

const DEFAULT_ADDRESS = '127.0.0.1:7233';

export const temporalEnvironment = {
  TEMPORAL_TASK_QUEUE: z.string().min(1).default('verification-journeys'),
  /** Before envconfig: kept as aliases of TEMPORAL_TLS_CLIENT_CERT_PATH / _KEY_PATH. */
  TEMPORAL_TLS_CERT: z.string().min(1).optional(),
  TEMPORAL_TLS_KEY: z.string().min(1).optional(),
};

export interface TemporalConfig {
  address: string;
  namespace: string;
  taskQueue: string;
  tls?: TLSConfig | boolean;
  apiKey?: string;
  /** gRPC metadata sent with every call (`TEMPORAL_GRPC_META_*`, a profile's `grpc_meta`). */
  metadata?: Record<string, string>;
}

/** The old TLS variable names, read as the envconfig ones when those are unset. */
function withLegacyTlsNames(env: NodeJS.ProcessEnv): Record<string, string> {
  const vars = Object.fromEntries(
    Object.entries(env).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );
  const legacy = parseEnvironment(temporalEnvironment, env);
  if (Boolean(legacy.TEMPORAL_TLS_CERT) !== Boolean(legacy.TEMPORAL_TLS_KEY)) {
    const missing = legacy.TEMPORAL_TLS_CERT ? 'TEMPORAL_TLS_KEY' : 'TEMPORAL_TLS_CERT';
    throw new ConfigurationError(`Invalid configuration:\n  ${missing}: required when the other TLS variable is set`);
  }
  if (legacy.TEMPORAL_TLS_CERT) vars.TEMPORAL_TLS_CLIENT_CERT_PATH ??= legacy.TEMPORAL_TLS_CERT;
  if (legacy.TEMPORAL_TLS_KEY) vars.TEMPORAL_TLS_CLIENT_KEY_PATH ??= legacy.TEMPORAL_TLS_KEY;
  // envconfig reads TEMPORAL_API_KEY itself; a secret file stands in for it (config/secretFromFile.ts).
  const apiKey = parseEnvironment({ TEMPORAL_API_KEY: z.string().optional() }, env).TEMPORAL_API_KEY;
  if (apiKey) vars.TEMPORAL_API_KEY = apiKey;
  return vars;
}

export function readTemporalConfig(env: NodeJS.ProcessEnv = process.env): TemporalConfig {
  const { TEMPORAL_TASK_QUEUE: taskQueue } = parseEnvironment(temporalEnvironment, env);
  let loaded: ReturnType<typeof loadClientConnectConfig>;
  try {
    loaded = loadClientConnectConfig({ overrideEnvVars: withLegacyTlsNames(env) });
  } catch (error) {
    if (error instanceof ConfigurationError) throw error;
    const where = env.TEMPORAL_CONFIG_FILE
      ? ` (TEMPORAL_CONFIG_FILE ${env.TEMPORAL_CONFIG_FILE}` +
        `${env.TEMPORAL_PROFILE ? `, profile ${env.TEMPORAL_PROFILE}` : ''})`
      : '';
    throw new ConfigurationError(`Invalid configuration:\n  Temporal connection${where}: ${(error as Error).message}`);
  }
  const { address, tls, apiKey, metadata } = loaded.connectionOptions;
  if (address !== undefined && !/^[^\s:]+:\d+$/.test(address)) {
    throw new ConfigurationError(`Invalid configuration:\n  TEMPORAL_ADDRESS: must be host:port, got ${address}`);
  }
  return {
    address: address ?? DEFAULT_ADDRESS,
    namespace: loaded.namespace ?? 'default',
    taskQueue,
    tls: tls ?? undefined,
    apiKey: typeof apiKey === 'string' ? apiKey : undefined,
    metadata: metadata ? (metadata as Record<string, string>) : undefined,
  };
}

/** Options that suit both `Connection.connect` and `NativeConnection.connect`. */
export interface TemporalConnectionOptions {
  address: string;
  tls?: TLSConfig | boolean;
  apiKey?: string;
  metadata?: Record<string, string>;
}

export function temporalConnectionOptions(config: TemporalConfig): TemporalConnectionOptions {
  const options: TemporalConnectionOptions = { address: config.address };
  if (config.tls !== undefined) options.tls = config.tls;
  if (config.metadata) options.metadata = config.metadata;
  if (config.apiKey) {
    options.apiKey = config.apiKey;
    // An API key (Temporal Cloud) goes over TLS unless a profile turned TLS off explicitly.
    options.tls ??= true;
  }
  return options;
}
