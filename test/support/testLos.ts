/**
 * A loan origination system as a lender would write one against the case API: the generated client
 * imported by its package name (@verification-journeys/case-api-client) to start cases and read
 * them, the `standardwebhooks` package to verify the events, a set of seen `webhook-id`s to take
 * each event once, and, after it was down, the events endpoint to recover the events it missed. It
 * can be taken down (answers 503, as a receiver behind a load balancer whose instances are gone)
 * and brought back.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { createCaseApiClient, type CaseApiClient, type CaseEvent } from '@verification-journeys/case-api-client';

export interface TakenEvent {
  id: string;
  event: CaseEvent;
  /** How it came: by webhook, or from the events endpoint after an outage. */
  via: 'webhook' | 'recovered';
}

export interface TestLos {
  url: string;
  /** The case API client (after `connect`). */
  api: CaseApiClient;
  /** The LOS learns where the case API is once the stack is up (the stack needs the LOS's URL first). */
  connect(apiUrl: string, apiKey: string): void;
  /** Each event once, in the order taken. */
  taken: TakenEvent[];
  /** Deliveries of an event already taken (retries, or events recovered before their retry came). */
  duplicates: number;
  /** Signed deliveries refused while down. */
  refusedWhileDown: number;
  down(): void;
  /** Back up: reads each case's events and takes those it missed, then takes deliveries again. */
  up(caseIds: readonly string[]): Promise<TakenEvent[]>;
  close(): Promise<void>;
}

export async function startTestLos(secret: string): Promise<TestLos> {
  const webhook = new Webhook(secret);
  const seen = new Set<string>();
  let isDown = false;
  const los: TestLos = {
    url: '',
    api: undefined as unknown as CaseApiClient,
    connect(apiUrl, apiKey) {
      los.api = createCaseApiClient(apiUrl, apiKey);
    },
    taken: [],
    duplicates: 0,
    refusedWhileDown: 0,
    down: () => void (isDown = true),
    async up(caseIds) {
      // Recovers first, then takes deliveries again: what it missed comes from the list, and the
      // retries that follow are duplicates (taking deliveries first would race the two).
      const recovered: TakenEvent[] = [];
      for (const caseId of caseIds) {
        const { data, error } = await los.api.GET('/v1/cases/{caseId}/events', { params: { path: { caseId } } });
        if (error) throw new Error(`events of ${caseId}: ${JSON.stringify(error)}`);
        for (const { id, deliveredAt: _delivered, ...event } of data.events) {
          const taken = take(id, event as CaseEvent, 'recovered');
          if (taken) recovered.push(taken);
        }
      }
      isDown = false;
      return recovered;
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
  const take = (id: string, event: CaseEvent, via: TakenEvent['via']): TakenEvent | undefined => {
    if (seen.has(id)) {
      los.duplicates += 1;
      return undefined;
    }
    seen.add(id);
    const taken = { id, event, via };
    los.taken.push(taken);
    return taken;
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      let event: CaseEvent;
      try {
        event = webhook.verify(
          Buffer.concat(chunks).toString('utf8'),
          req.headers as Record<string, string>,
        ) as CaseEvent;
      } catch {
        res.writeHead(400).end();
        return;
      }
      if (isDown) {
        los.refusedWhileDown += 1;
        res.writeHead(503).end();
        return;
      }
      take(req.headers['webhook-id'] as string, event, 'webhook');
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  los.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/los/case-events`;
  return los;
}
