/**
 * Fault suite: two bridges behind a load balancer that routes by their health check (`/readyz`),
 * signed deliveries at 10 a second, and Temporal SIGKILLed for two minutes
 * (BRIDGE_FAULT_OUTAGE_SECONDS) then restarted on the same SQLite file. A bridge that can spool is
 * ready whatever Temporal does, so the balancer keeps both and refuses no delivery; once Temporal
 * is back every delivery is applied exactly once: its resource workflow's history holds it under
 * one dedupe id (a second signal of it, after an answer lost in the outage, is ignored there by that
 * id: test/logic/resourceLifecycle.test.ts, test/faults/redundantDelivery.test.ts).
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { startDevServer, type DevServer } from '../../cli/devServer';
import { freePort } from '../../cli/freePort';
import { resolveTemporalCli } from '../../cli/temporalCli';
import { connectTemporalClient, type TemporalClient } from '../../client/temporalClient';
import type { ResourceDelivery } from '../../client/resourceMessages';
import { resourceWorkflowId } from '../../provider';
import { readBridgeConfig } from '../../webhook-bridge/config';
import { startBridge, type RunningBridge } from '../../webhook-bridge/startBridge';
import { envelope, idvCompleted, sign } from '../support/deliveries';
import { heldDeliveries } from '../support/heldDeliveries';
import { startBalancer, type Balancer } from '../support/healthCheckedBalancer';
import { waitUntil } from '../support/waitUntil';

const SECRET = 'balancer-secret';
const PER_SECOND = 10;
const OUTAGE_MS = Number(process.env.BRIDGE_FAULT_OUTAGE_SECONDS ?? 120) * 1_000;
/** Deliveries before Temporal goes and after it is back, so that both edges are crossed under load. */
const EDGE_MS = 5_000;
const dir = mkdtempSync(path.join(os.tmpdir(), 'bridge-balancer-'));
const dbFile = path.join(dir, 'temporal.db');
const logFile = path.join(dir, 'temporal.log');
let server: DevServer | undefined;
let bridges: RunningBridge[] = [];
let balancer: Balancer | undefined;
let temporalClient: TemporalClient | undefined;

afterAll(async () => {
  await balancer?.stop();
  for (const bridge of bridges) await bridge.stop();
  await temporalClient?.connection.close();
  await server?.stop();
});

/** Resolves once the process is gone (signal 0 probes without signalling). */
async function gone(pid: number): Promise<void> {
  await waitUntil(`Temporal (pid ${pid}) to exit`, () => {
    try {
      process.kill(pid, 0);
      return false;
    } catch {
      return true;
    }
  });
}

interface Sent {
  requestId: string;
  batchId: string;
  status: number;
}

/** Sends a signed delivery through the balancer every 1/PER_SECOND s until `until()` holds. */
async function sendAtRate(url: string, until: () => boolean): Promise<Sent[]> {
  const answers: Promise<Sent>[] = [];
  const start = Date.now();
  for (let n = 0; !until(); n++) {
    // The load's own schedule: the n-th delivery leaves at start + n/PER_SECOND s.
    const due = start + (n * 1_000) / PER_SECOND;
    if (due > Date.now()) await new Promise((resolve) => setTimeout(resolve, due - Date.now()));
    const requestId = randomUUID();
    const batchId = randomUUID();
    const raw = envelope('IdentityVerification.Completed', idvCompleted(requestId));
    answers.push(
      fetch(`${url}/webhooks`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-hmac-sha256-signature': sign(raw, SECRET),
          'x-batch-correlation-id': batchId,
        },
        body: raw,
      }).then(
        async (response) => {
          await response.arrayBuffer();
          return { requestId, batchId, status: response.status };
        },
        () => ({ requestId, batchId, status: 0 }),
      ),
    );
  }
  return Promise.all(answers);
}

/** Runs `work` over `items`, `lanes` at a time. */
async function inLanes<T, R>(items: readonly T[], lanes: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array<R>(items.length);
  let next = 0;
  const lane = async () => {
    for (let i = next++; i < items.length; i = next++) results[i] = await work(items[i]!);
  };
  await Promise.all(Array.from({ length: lanes }, lane));
  return results;
}

test(
  `two bridges behind a health-checked balancer, ${PER_SECOND} deliveries a second, Temporal away for ${OUTAGE_MS / 1_000} s: none refused, each applied once`,
  async () => {
    const cliPath = await resolveTemporalCli({ log: () => {} });
    const port = await freePort();
    // Started again on its file after the outage, the server reopens every run the deliveries left
    // while the bridges press on it: on two cores that has taken longer than the default 60 s.
    const startServer = () => startDevServer({ cliPath, port, dbFile, logFile, startupTimeoutMs: 180_000 });
    const temporal = { address: `127.0.0.1:${port}`, namespace: 'default', taskQueue: `balancer-${randomUUID()}` };
    server = await startServer();
    // Production settings, but for the secret and the spools.
    const config = (name: string) => ({
      ...readBridgeConfig({ WEBHOOK_SECRET: SECRET }),
      port: 0,
      spoolDir: path.join(dir, `spool-${name}`),
    });
    const logger = pino({ level: 'silent' });
    bridges = [
      await startBridge(config('a'), temporal, { logger }),
      await startBridge(config('b'), temporal, { logger }),
    ];
    balancer = await startBalancer({ backends: bridges.map((b) => new URL(b.url).origin), healthPath: '/readyz' });

    let phase: 'before' | 'outage' | 'after' | 'done' = 'before';
    const sending = sendAtRate(balancer.url, () => phase === 'done');
    await new Promise((resolve) => setTimeout(resolve, EDGE_MS));
    const pid = server.pid;
    process.kill(pid, 'SIGKILL');
    await gone(pid);
    server = undefined;
    phase = 'outage';
    await new Promise((resolve) => setTimeout(resolve, OUTAGE_MS));
    const restartFrom = Date.now();
    server = await startServer();
    const backAt = Date.now();
    phase = 'after';
    await new Promise((resolve) => setTimeout(resolve, EDGE_MS));
    phase = 'done';
    const sent = await sending;

    // None refused: every delivery answered 202 through the balancer, both bridges always in.
    expect(sent.filter((s) => s.status !== 202)).toEqual([]);
    expect(balancer.refused).toBe(0);
    expect(Object.values(balancer.failedChecks)).toEqual([0, 0]);
    const spooled = await Promise.all(
      bridges.map(async (b) => (await b.metrics.deliveries.get()).values.find((v) => v.labels.outcome === 'spooled')),
    );
    await Promise.all(bridges.map((b) => b.recorder.drained()));
    const drainedAfterMs = Date.now() - backAt;

    // Each applied once: its resource workflow holds its delivery, under one dedupe id (a second
    // signal of it, after an answer lost in the outage, is one the workflow ignores by that id).
    // Read from the histories, so no worker replays 1,700 workflows to answer queries.
    const checkFrom = Date.now();
    temporalClient = await connectTemporalClient(temporal);
    const { client } = temporalClient;
    const held = await inLanes(sent, 8, (s) =>
      // A workflow that does not exist holds nothing.
      heldDeliveries(client, resourceWorkflowId({ kind: 'idv', id: s.requestId })).catch((): ResourceDelivery[] => []),
    );
    const notOnce = sent.filter((s, i) => {
      const deliveries = held[i]!;
      return (
        deliveries.length === 0 ||
        new Set(deliveries.map((d) => d.dedupeId)).size !== 1 ||
        deliveries.some((d) => d.batchId !== s.batchId)
      );
    });
    expect(notOnce).toEqual([]);
    const signalledTwice = held.filter((deliveries) => deliveries.length > 1).length;
    // The run's figures, on stdout (jest's console would add the call site, a stack frame).
    process.stdout.write(
      `${JSON.stringify({
        deliveries: sent.length,
        outageSeconds: OUTAGE_MS / 1_000,
        restartSeconds: Math.round((backAt - restartFrom) / 100) / 10,
        spooledPerBridge: spooled.map((v) => v?.value ?? 0),
        drainedSecondsAfterTemporalBack: Math.round(drainedAfterMs / 100) / 10,
        checkedSeconds: Math.round((Date.now() - checkFrom) / 100) / 10,
        signalledTwice,
      })}\n`,
    );
  },
  // The run takes about 4 minutes; a slow restart of the server may add up to 3 more.
  OUTAGE_MS + 480_000,
);
