/**
 * `npm run bench:bridge`: signed deliveries through the webhook bridge (verify, parse, route,
 * signalWithStart under a deadline) against two baselines from the same run, on the same
 * embedded Temporal: direct signalWithStart calls (Temporal's own cost) and an express endpoint
 * that only reads the raw body (HTTP's own cost). Prints throughput, latencies and ratios.
 */
import { createHmac, randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { Client, Connection } from '@temporalio/client';
import express from 'express';
import pino from 'pino';
import { deliverToResource } from '../activities/signalResource';
import { dataConverterFor } from '../codec/dataConverter';
import { readPayloadKeys } from '../codec/payloadKeys';
import { startDevServer } from '../cli/devServer';
import { resolveTemporalCli } from '../cli/temporalCli';
import { readBridgeConfig } from '../webhook-bridge/config';
import { startBridge } from '../webhook-bridge/startBridge';
import { routeIncoming } from '../webhook-bridge/deliveryRecorder';

const N = Number(process.env.BENCH_DELIVERIES ?? 400);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 8);
const SECRET = 'bench-secret';

function delivery(): { raw: string; batchId: string } {
  const requestId = randomUUID();
  const raw = JSON.stringify({
    webhook_id: randomUUID(),
    webhook_name: 'bench',
    datetime_sent: new Date().toISOString(),
    external_ref: null,
    event_type: 'IdentityVerification.Completed',
    data: {
      identity_request: { request_id: requestId, identity_request_endpoint: '/v2/persons/p/identity-verifications', identity_result_endpoint: `/v2/identity/${requestId}` },
      person: { first_name: 'A', last_name: 'B', name: 'A B', person_id: 'p' },
      status: 'Completed',
      date_completed: new Date().toISOString(),
      verification_status: 'Approved',
    },
  });
  return { raw, batchId: randomUUID() };
}

async function measure(name: string, send: (d: { raw: string; batchId: string }) => Promise<void>) {
  const items = Array.from({ length: N }, delivery);
  const latencies: number[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < items.length) {
        const item = items[next++]!;
        const t0 = performance.now();
        await send(item);
        latencies.push(performance.now() - t0);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))]!;
  return { name, perSecond: N / seconds, p50: pct(50), p99: pct(99) };
}

async function main(): Promise<void> {
  const cliPath = await resolveTemporalCli();
  const server = await startDevServer({ cliPath, logFile: path.join(os.tmpdir(), 'bench-temporal.log') });
  const temporal = { address: server.address, namespace: 'default', taskQueue: 'bench' };
  const connection = await Connection.connect({ address: server.address });
  const payloadKeys = readPayloadKeys();
  const client = new Client({ connection, dataConverter: dataConverterFor(payloadKeys) });
  const bridge = await startBridge(
    { ...readBridgeConfig({ WEBHOOK_SECRET: SECRET }), port: 0, spoolDir: path.join(os.tmpdir(), `bench-spool-${process.pid}`) },
    temporal,
    { logger: pino({ level: 'silent' }), payloadKeys },
  );
  const echo = express().post('/webhooks', express.raw({ type: () => true, limit: 1024 * 1024 }), (_req, res) => {
    res.status(202).json({ status: 'accepted' });
  });
  const echoServer = echo.listen(0, '127.0.0.1');
  await new Promise((r) => echoServer.once('listening', r));
  const echoUrl = `http://127.0.0.1:${(echoServer.address() as AddressInfo).port}/webhooks`;

  const post = (url: string) => async ({ raw, batchId }: { raw: string; batchId: string }) => {
    const signature = createHmac('sha256', SECRET).update(raw).digest('base64');
    const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', 'x-hmac-sha256-signature': signature, 'x-batch-correlation-id': batchId }, body: raw });
    await response.arrayBuffer();
    if (response.status !== 202) throw new Error(`${url} answered ${response.status}`);
  };
  const direct = async ({ raw, batchId }: { raw: string; batchId: string }) => {
    const routed = routeIncoming({ body: JSON.parse(raw), batchId, receivedAt: new Date().toISOString() });
    await Promise.all(routed.targets.map((t) => deliverToResource({ client, taskQueue: 'bench' }, t.resource, t.delivery)));
  };

  try {
    await measure('warm-up', post(bridge.url));
    const results = [await measure('http-only baseline', post(echoUrl)), await measure('direct signalWithStart baseline', direct), await measure('bridge', post(bridge.url))];
    const [httpOnly, directSignal, viaBridge] = results as [typeof results[0], typeof results[0], typeof results[0]];
    console.log(`${N} deliveries, concurrency ${CONCURRENCY}, ${os.cpus().length} cores`);
    for (const r of results) console.log(`${r.name.padEnd(34)} ${r.perSecond.toFixed(0).padStart(6)}/s   p50 ${r.p50.toFixed(1).padStart(6)} ms   p99 ${r.p99.toFixed(1).padStart(6)} ms`);
    console.log(`bridge throughput / direct signalWithStart: ${(viaBridge.perSecond / directSignal.perSecond).toFixed(2)}`);
    console.log(`bridge p50 latency / direct signalWithStart: ${(viaBridge.p50 / directSignal.p50).toFixed(2)}`);
    console.log(`bridge throughput / http-only: ${(viaBridge.perSecond / httpOnly.perSecond).toFixed(2)}`);
    console.log(`spool depth after the run: ${bridge.recorder.spoolDepth}`);
  } finally {
    echoServer.close();
    await bridge.stop();
    await connection.close();
    await server.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
