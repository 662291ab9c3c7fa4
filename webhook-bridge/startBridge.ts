/** Starts the bridge's HTTP listener on a Temporal client; used by `npm run bridge`, `npm start` and tests. */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client, Connection } from '@temporalio/client';
import pino, { type Logger } from 'pino';
import { temporalConnectionOptions, type TemporalConfig } from '../worker/temporalConfig';
import { createBridgeApp } from './app';
import type { BridgeConfig } from './config';
import { temporalSignaller } from './temporalSignaller';

export interface RunningBridge {
  url: string;
  /** Replaces the secrets in use (rotation); current first. */
  setSecrets(secrets: string[]): void;
  stop(): Promise<void>;
}

export async function startBridge(config: BridgeConfig, temporal: TemporalConfig, logger: Logger = pino({ name: 'bridge' })): Promise<RunningBridge> {
  const connection = await Connection.connect(temporalConnectionOptions(temporal));
  const client = new Client({ connection, namespace: temporal.namespace });
  let secrets = [...config.secrets];
  const app = createBridgeApp({
    path: config.path,
    maxBodyBytes: config.maxBodyBytes,
    secrets: () => secrets,
    requireSignature: config.requireSignature,
    signal: temporalSignaller(client, temporal.taskQueue),
    logger,
  });
  const server: Server = await new Promise((resolve, reject) => {
    const s = app.listen(config.port, '127.0.0.1', () => resolve(s));
    s.once('error', reject);
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${config.path}`,
    setSecrets(next) {
      secrets = [...next];
    },
    async stop() {
      // close() stops accepting and waits for in-flight requests to finish.
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await connection.close();
    },
  };
}
