/**
 * An assembled bridge listening on its host and port. A port it cannot take stops the assembled
 * parts and fails the start with the listener's error.
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { AssembledBridge } from './assembleBridge';

export interface ServedBridge {
  /** Where deliveries are posted: a URL this machine can reach. */
  url: string;
  /** Stops accepting, answers what is in flight, then stops the assembled parts. */
  stop(): Promise<void>;
}

/** What listens for HTTP: an express app (whose callback hears of a failure to listen too). */
export interface Listenable {
  listen(port: number, host: string, done: (error?: Error) => void): Server;
}

export async function serveBridge(
  bridge: Pick<AssembledBridge, 'app' | 'stop'>,
  address: { host?: string; port: number; path: string },
): Promise<ServedBridge> {
  const host = address.host ?? '127.0.0.1';
  const server = await listenOn(bridge.app, address.port, host).catch(async (error: unknown) => {
    await bridge.stop();
    throw error;
  });
  return {
    url: urlOf(server, host, address.path),
    stop: () => bridge.stop(() => closeServer(server)),
  };
}

/**
 * Resolves once `app` listens on host:port; rejects when it cannot (the port taken, say). Express
 * calls the callback on a listen error as well, with the error: it must not count as listening.
 */
export function listenOn(app: Listenable, port: number, host: string): Promise<Server> {
  return new Promise<Server>((resolve, reject) => {
    const server = app.listen(port, host, (error) => (error ? reject(error) : resolve(server)));
    server.once('error', reject);
  });
}

/** Stops accepting; resolves once the requests in flight have been answered. */
export function closeServer(server: Server): Promise<void> {
  return new Promise<void>((resolve) => server.close(() => resolve()));
}

/** A URL this machine can reach the server at (a wildcard address is not one). */
export function urlOf(server: Server, host: string, path: string): string {
  const { port } = server.address() as AddressInfo;
  const reachable = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
  return `http://${reachable.includes(':') ? `[${reachable}]` : reachable}:${port}${path}`;
}
