/** Where workers and clients find Temporal (DESIGN.md §9). Shared by worker, bridge and CLI. */
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import type { TLSConfig } from '@temporalio/common/lib/internal-non-workflow';
import { ConfigurationError, parseEnvironment } from './environment';

export const temporalEnvironment = {
  TEMPORAL_ADDRESS: z.string().regex(/^[^\s:]+:\d+$/, 'must be host:port').default('127.0.0.1:7233'),
  TEMPORAL_NAMESPACE: z.string().min(1).default('default'),
  TEMPORAL_TASK_QUEUE: z.string().min(1).default('verification-journeys'),
  TEMPORAL_TLS_CERT: z.string().optional(),
  TEMPORAL_TLS_KEY: z.string().optional(),
  TEMPORAL_API_KEY: z.string().optional(),
};

export interface TemporalConfig {
  address: string;
  namespace: string;
  taskQueue: string;
  tlsCertPath?: string;
  tlsKeyPath?: string;
  apiKey?: string;
}

export function readTemporalConfig(env: NodeJS.ProcessEnv = process.env): TemporalConfig {
  const config = parseEnvironment(temporalEnvironment, env);
  if (Boolean(config.TEMPORAL_TLS_CERT) !== Boolean(config.TEMPORAL_TLS_KEY)) {
    const missing = config.TEMPORAL_TLS_CERT ? 'TEMPORAL_TLS_KEY' : 'TEMPORAL_TLS_CERT';
    throw new ConfigurationError(`Invalid configuration:\n  ${missing}: required when the other TLS variable is set`);
  }
  return {
    address: config.TEMPORAL_ADDRESS,
    namespace: config.TEMPORAL_NAMESPACE,
    taskQueue: config.TEMPORAL_TASK_QUEUE,
    tlsCertPath: config.TEMPORAL_TLS_CERT,
    tlsKeyPath: config.TEMPORAL_TLS_KEY,
    apiKey: config.TEMPORAL_API_KEY,
  };
}

/** Options that suit both `Connection.connect` and `NativeConnection.connect`. */
export interface TemporalConnectionOptions {
  address: string;
  tls?: TLSConfig | boolean;
  apiKey?: string;
}

export function temporalConnectionOptions(config: TemporalConfig): TemporalConnectionOptions {
  const options: TemporalConnectionOptions = { address: config.address };
  if (config.tlsCertPath && config.tlsKeyPath) {
    options.tls = {
      clientCertPair: { crt: readFileSync(config.tlsCertPath), key: readFileSync(config.tlsKeyPath) },
    };
  }
  if (config.apiKey) {
    options.apiKey = config.apiKey;
    options.tls ??= true;
  }
  return options;
}
