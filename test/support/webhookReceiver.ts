/** A webhook endpoint for tests: records every request's raw body and headers, answers as told. */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Json } from './faultHarness/rawProviderApi';

export interface ReceivedDelivery {
  method: string;
  headers: http.IncomingHttpHeaders;
  raw: string;
  /** The parsed body, or null when it is not JSON. */
  body: Json;
}

export interface WebhookReceiver {
  url: string;
  received: ReceivedDelivery[];
  /** The status to answer the next requests with (default 200). */
  respondWith(status: number): void;
  close(): Promise<void>;
}

export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const received: ReceivedDelivery[] = [];
  let status = 200;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      let body: unknown;
      try {
        body = JSON.parse(raw);
      } catch {
        body = null;
      }
      received.push({ method: req.method ?? '', headers: req.headers, raw, body });
      res.statusCode = status;
      res.end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    received,
    respondWith: (next) => (status = next),
    close: () => new Promise((r) => server.close(() => r())),
  };
}
