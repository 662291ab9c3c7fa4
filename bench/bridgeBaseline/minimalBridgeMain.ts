/**
 * The bridge benchmark's baseline process: a minimal express app whose one route reads the JSON
 * body, routes it as the bridge does (the same resource workflow ids and `deliver` signal) and
 * signals with `signalWithStart` through a client with the bridge's data converter, answering 202.
 * No signature check, spool, metrics, deadline or logging: the bridge process's CPU per delivery
 * over this one's is what the bridge itself adds.
 */
import { Client, Connection } from '@temporalio/client';
import express from 'express';
import { z } from 'zod';
import { deliverToResource } from '../../activities/signalResource';
import { dataConverterFor } from '../../codec/dataConverter';
import { readPayloadKeys } from '../../codec/payloadKeys';
import { routeIncoming } from '../../webhook-bridge/spooledRouting';

const environment = z.object({
  BASELINE_PORT: z.coerce.number().int().positive(),
  TEMPORAL_ADDRESS: z.string().min(1),
  TEMPORAL_TASK_QUEUE: z.string().min(1),
});

const ACCEPTED = JSON.stringify({ status: 'accepted' });

async function main(): Promise<void> {
  const env = environment.parse(process.env);
  const connection = await Connection.connect({ address: env.TEMPORAL_ADDRESS });
  const client = new Client({ connection, dataConverter: dataConverterFor(readPayloadKeys()) });
  const target = { client, taskQueue: env.TEMPORAL_TASK_QUEUE };
  // Answers the way the bridge does (no ETag, the body serialised once).
  const app = express().set('etag', false);
  app.get('/healthz', (_req, res) => {
    res.status(200).end();
  });
  app.post('/webhooks', express.json({ type: () => true, limit: 1024 * 1024 }), async (req, res) => {
    try {
      const batchId = req.get('x-batch-correlation-id') ?? null;
      const routed = routeIncoming({ body: req.body, batchId, receivedAt: new Date().toISOString() });
      await Promise.all(routed.targets.map((t) => deliverToResource(target, t.resource, t.delivery)));
      res.status(202).type('application/json').send(ACCEPTED);
    } catch {
      res.status(503).end();
    }
  });
  const server = app.listen(env.BASELINE_PORT, '127.0.0.1');
  process.once('SIGTERM', () => {
    server.close(() => void connection.close().then(() => process.exit(0)));
  });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
