/**
 * The bridge's own HTTP surface (createBridgeApp: raw body, signature, JSON, envelope validation,
 * routing, metrics, logging) with a recorder whose signal answers at once: the verify-and-validate
 * path alone, without Temporal, for the bridge benchmark.
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from 'pino';
import { createBridgeApp } from '../webhook-bridge/app';
import { DeadLetterStore } from '../webhook-bridge/deadLetters';
import { DeliveryRecorder } from '../webhook-bridge/deliveryRecorder';
import { createBridgeMetrics } from '../webhook-bridge/metrics';
import { workflowIdsOf } from '../webhook-bridge/routeDelivery';
import { SecretRing } from '../webhook-bridge/secretRing';
import { Spool } from '../webhook-bridge/spool';
import { routeSpooled } from '../webhook-bridge/spooledRouting';

export interface LocalServer {
  url: string;
  stop(): Promise<void>;
}

export async function startBridgeWithoutTemporal(options: {
  secret: string;
  spoolDir: string;
  logger: Logger;
}): Promise<LocalServer> {
  const metrics = createBridgeMetrics();
  const spool = new Spool(options.spoolDir, {
    resourcesOf: (record) => workflowIdsOf(routeSpooled(record)),
    onQuarantine: () => {},
  });
  const recorder = new DeliveryRecorder({
    signal: async () => {},
    spool,
    deadLetters: new DeadLetterStore(options.spoolDir),
    verifyHeld: async () => 'verified',
    spoolLimit: 1_000,
    metrics,
    logger: options.logger,
  });
  const app = createBridgeApp({
    path: '/webhooks',
    maxBodyBytes: 1024 * 1024,
    secrets: new SecretRing({ current: options.secret }),
    requireSignature: true,
    recorder,
    metrics,
    logger: options.logger,
  });
  return listen(app, async () => recorder.stop());
}

export async function listen(
  app: { listen(port: number, host: string, ready: () => void): Server },
  onStop: () => Promise<void> = async () => {},
): Promise<LocalServer> {
  const server = await new Promise<Server>((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/webhooks`,
    async stop() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await onStop();
    },
  };
}
