/**
 * A server asked for a port another process holds fails its start with the listener's error
 * (EADDRINUSE), for the codec server and the case API alike: Express also calls its listen
 * callback on that error, which must not count as listening.
 */
import net from 'node:net';
import type { Client } from '@temporalio/client';
import { readCaseApiConfig } from '../../case-api/config';
import { startCaseApi } from '../../case-api/startCaseApi';
import { generatePayloadKey } from '../../codec/payloadKeys';
import { startCodecServer } from '../../codec/startCodecServer';

let holder: net.Server;
let port: number;
beforeAll(async () => {
  holder = net.createServer();
  await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
  port = (holder.address() as net.AddressInfo).port;
});
afterAll(async () => {
  await new Promise<void>((resolve) => holder.close(() => resolve()));
});

test('the codec server on a taken port fails with EADDRINUSE', async () => {
  const config = { port, token: 'a-token-of-sixteen-characters', allowedOrigins: [], maxBodyBytes: 1024 };
  await expect(startCodecServer(config, [generatePayloadKey('k1')])).rejects.toThrow(/EADDRINUSE/);
});

test('the case API on a taken port fails with EADDRINUSE', async () => {
  const config = { ...readCaseApiConfig({ CASE_API_KEYS: `lender:origination:${'a'.repeat(64)}` }), port };
  await expect(startCaseApi(config, { client: {} as Client, taskQueue: 'unused' })).rejects.toThrow(/EADDRINUSE/);
});
