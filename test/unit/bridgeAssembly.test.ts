/**
 * The bridge assembled from its parts with a signaller of the caller's (a benchmark's, without
 * Temporal): a signed delivery is verified, routed and handed to that signaller; a wrongly signed
 * one never reaches it; a port that cannot be taken fails the start with the listener's error
 * (Express also calls its listen callback on that error, which must not count as listening).
 */
import { randomUUID } from 'node:crypto';
import net from 'node:net';
import pino from 'pino';
import { resourceWorkflowId } from '../../provider';
import { assembleBridge } from '../../webhook-bridge/assembleBridge';
import { readBridgeConfig, type BridgeConfig } from '../../webhook-bridge/config';
import { workflowIdsOf, type RoutedDelivery } from '../../webhook-bridge/routeDelivery';
import { serveBridge } from '../../webhook-bridge/serveBridge';
import { startBridge } from '../../webhook-bridge/startBridge';
import { SIGNATURE_HEADER } from '../../webhook-bridge/verifySignature';
import { envelope, idvCompleted, post, sign } from '../support/deliveries';
import { testDirectory } from '../setup/testEnvironment';

const SECRET = 'assembled-bridge-secret';
const logger = pino({ level: 'silent' });

const configOn = (port: number): BridgeConfig => ({
  ...readBridgeConfig({ WEBHOOK_SECRET: SECRET }),
  port,
  spoolDir: testDirectory('assembled-bridge-spool'),
});

test('a signed delivery reaches the injected signaller, routed to its workflow; a wrongly signed one does not', async () => {
  const signalled: RoutedDelivery[] = [];
  const config = configOn(0);
  const bridge = await serveBridge(
    assembleBridge(config, { signal: async (routed) => void signalled.push(routed), logger }),
    config,
  );
  try {
    const requestId = randomUUID();
    const raw = envelope('IdentityVerification.Completed', idvCompleted(requestId));
    expect((await post(bridge.url, raw, { [SIGNATURE_HEADER]: sign(raw, 'another-secret') })).status).toBe(401);
    expect(signalled).toEqual([]);

    expect((await post(bridge.url, raw, { [SIGNATURE_HEADER]: sign(raw, SECRET) })).status).toBe(202);
    expect(signalled.flatMap(workflowIdsOf)).toEqual([resourceWorkflowId({ kind: 'idv', id: requestId })]);
  } finally {
    await bridge.stop();
  }
  await expect(fetch(bridge.url)).rejects.toThrow();
});

/** Runs `use` with a port another server holds. */
async function withTakenPort(use: (port: number) => Promise<void>): Promise<void> {
  const taken = net.createServer();
  await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
  try {
    await use((taken.address() as net.AddressInfo).port);
  } finally {
    await new Promise<void>((resolve) => taken.close(() => resolve()));
  }
}

test("a port already taken fails the start with the listener's error", async () => {
  await withTakenPort(async (port) => {
    const config = configOn(port);
    const parts = assembleBridge(config, { signal: async () => undefined, logger });
    await expect(serveBridge(parts, config)).rejects.toThrow(/EADDRINUSE/);
  });
});

test("startBridge on a port already taken fails with the listener's error (Temporal is never reached)", async () => {
  await withTakenPort(async (port) => {
    const temporal = { address: '127.0.0.1:9', namespace: 'default', taskQueue: 'never-polled' };
    await expect(startBridge(configOn(port), temporal, { logger })).rejects.toThrow(/EADDRINUSE/);
  });
});
