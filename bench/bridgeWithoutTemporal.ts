/**
 * The bridge as deployed (configuration, secret ring, recorder, spool, HTTP surface: raw body,
 * signature, JSON, envelope validation, routing, metrics, logging) with a signaller that answers
 * at once: the verify-and-validate path alone, without Temporal, for the bridge benchmark.
 */
import type { Logger } from 'pino';
import { assembleBridge } from '../webhook-bridge/assembleBridge';
import { readBridgeConfig } from '../webhook-bridge/config';
import { closeServer, listenOn, serveBridge, urlOf, type Listenable } from '../webhook-bridge/serveBridge';

export interface LocalServer {
  url: string;
  stop(): Promise<void>;
}

export async function startBridgeWithoutTemporal(options: {
  secret: string;
  spoolDir: string;
  logger: Logger;
}): Promise<LocalServer> {
  const config = { ...readBridgeConfig({ WEBHOOK_SECRET: options.secret }), port: 0, spoolDir: options.spoolDir };
  return serveBridge(assembleBridge(config, { signal: async () => undefined, logger: options.logger }), config);
}

/** Another app (a baseline) on a free loopback port, posted to at the bridge's path. */
export async function listen(app: Listenable): Promise<LocalServer> {
  const server = await listenOn(app, 0, '127.0.0.1');
  return { url: urlOf(server, '127.0.0.1', '/webhooks'), stop: () => closeServer(server) };
}
