/**
 * An LOS that can hold its answers: while held, every delivery waits unanswered (a slow LOS
 * behind a load balancer that keeps the connection open) until `release()` answers them all.
 * Every delivery is recorded with its `webhook-id`, so a test sees what came, when, and how often.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface LosDelivery {
  id: string;
  type: string;
  caseId: string;
  runId: string;
  /** Whether the LOS answered it (a held one is answered on release, unless its sender gave up). */
  answered: boolean;
}

export interface HoldingLos {
  url: string;
  deliveries: LosDelivery[];
  /** Deliveries waiting for an answer now. */
  held(): number;
  hold(): void;
  /** Answers every held delivery, and answers the next ones at once. */
  release(): void;
  /** The distinct event ids answered for a case (of a type, when given). */
  answeredIds(caseId: string, type?: string): Set<string>;
  close(): Promise<void>;
}

export async function startHoldingLos(): Promise<HoldingLos> {
  let holding = false;
  const waiting = new Set<() => void>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
        type: string;
        data: { caseId: string; runId: string };
      };
      const delivery: LosDelivery = {
        id: String(req.headers['webhook-id']),
        type: body.type,
        caseId: body.data.caseId,
        runId: body.data.runId,
        answered: false,
      };
      los.deliveries.push(delivery);
      const answer = () => {
        waiting.delete(answer);
        if (res.destroyed) return;
        delivery.answered = true;
        res.writeHead(204).end();
      };
      if (!holding) return answer();
      waiting.add(answer);
      res.on('close', () => waiting.delete(answer));
    });
  });
  const los: HoldingLos = {
    url: '',
    deliveries: [],
    held: () => waiting.size,
    hold: () => void (holding = true),
    release() {
      holding = false;
      for (const answer of [...waiting]) answer();
    },
    answeredIds: (caseId, type) =>
      new Set(
        los.deliveries
          .filter((d) => d.answered && d.caseId === caseId && (type === undefined || d.type === type))
          .map((d) => d.id),
      ),
    close: () =>
      new Promise((resolve) => {
        los.release();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  los.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/los/case-events`;
  return los;
}
