/**
 * A load balancer of the kind a deployment puts in front of the bridges, small enough to read: it
 * checks each backend's health path on an interval (200 within the timeout: in; anything else:
 * out) and forwards each request to the next backend in, round robin. With none in, it answers
 * 503 itself, which the provider counts as a failed delivery it never sends again (spec §6.1.2).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface BalancerOptions {
  /** Backend origins (`http://host:port`). */
  backends: string[];
  healthPath: string;
  intervalMs?: number;
  timeoutMs?: number;
}

export interface Balancer {
  url: string;
  /** Requests answered by the balancer itself, no backend being in, or a backend failing to answer. */
  readonly refused: number;
  /** Health checks a backend failed, by origin. */
  readonly failedChecks: Record<string, number>;
  stop(): Promise<void>;
}

export async function startBalancer(options: BalancerOptions): Promise<Balancer> {
  const { backends, healthPath, intervalMs = 1_000, timeoutMs = 1_000 } = options;
  const healthy = new Set<string>();
  const failedChecks: Record<string, number> = Object.fromEntries(backends.map((b) => [b, 0]));
  let refused = 0;
  let next = 0;

  const check = async (origin: string) => {
    const ok = await fetch(new URL(healthPath, origin), { signal: AbortSignal.timeout(timeoutMs) }).then(
      async (response) => {
        await response.arrayBuffer();
        return response.status === 200;
      },
      () => false,
    );
    if (ok) healthy.add(origin);
    else {
      healthy.delete(origin);
      failedChecks[origin] = (failedChecks[origin] ?? 0) + 1;
    }
  };
  const checkAll = () => Promise.all(backends.map(check));
  await checkAll();
  let checking = Promise.resolve();
  const timer = setInterval(() => {
    checking = checking.then(() => checkAll()).then(() => undefined);
  }, intervalMs);

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const inRotation = backends.filter((b) => healthy.has(b));
      const backend = inRotation[next++ % Math.max(1, inRotation.length)];
      const refuse = (status: number) => {
        refused++;
        res.writeHead(status).end();
      };
      if (!backend) return refuse(503);
      const headers = Object.fromEntries(
        Object.entries(req.headers).filter(
          (entry): entry is [string, string] => typeof entry[1] === 'string' && entry[0] !== 'host',
        ),
      );
      fetch(new URL(req.url ?? '/', backend), { method: req.method, headers, body: Buffer.concat(chunks) }).then(
        async (response) => {
          const body = Buffer.from(await response.arrayBuffer());
          res.writeHead(response.status, { 'content-type': response.headers.get('content-type') ?? 'text/plain' });
          res.end(body);
        },
        () => refuse(502),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    get refused() {
      return refused;
    },
    failedChecks,
    async stop() {
      clearInterval(timer);
      await checking;
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
