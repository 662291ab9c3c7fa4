/**
 * `journey webhooks sync` against the simulator over HTTP: idempotent, every event type, one
 * secret, redundant webhooks.
 */
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ProviderClient } from '../../activities/providerClient';
import { syncWebhooks } from '../../cli/webhookSync';
import { eventTypesTree } from '../../provider';
import { startSimulator, type RunningSimulator } from '../../simulator/startSimulator';

let sim: RunningSimulator;
beforeAll(async () => {
  sim = await startSimulator({
    port: 0,
    clientId: 'sync',
    clientSecret: 'sync-secret',
    seed: 4,
    tokenLifetimeSeconds: 3600,
    allowInsecureLoopbackCallbacks: false,
  });
});
afterAll(async () => {
  await sim?.stop();
});

test('two callback URLs: two webhooks on every event type and one secret; a second run updates in place', async () => {
  const provider = new ProviderClient({
    baseUrl: sim.baseUrl,
    authUrl: sim.authUrl,
    clientId: 'sync',
    clientSecrets: ['sync-secret'],
    requestTimeoutMs: 5_000,
  });
  const stateFile = path.join(mkdtempSync(path.join(os.tmpdir(), 'webhook-sync-')), 'webhooks.json');
  const urls = ['https://bridge-a.example.test/webhooks', 'https://bridge-b.example.test/webhooks'];
  const first = await syncWebhooks(provider, { callbackUrls: urls, stateFile });
  expect(first.webhooks.map((w) => w.action)).toEqual(['created', 'created']);
  expect(first.secret.action).toBe('created');
  const everyType = eventTypesTree().flatMap((g) =>
    g.event_types.flatMap((p) => [p.event_name, ...p.event_types.map((c) => c.event_name)]),
  );
  expect([...first.eventTypes].sort()).toEqual([...new Set(everyType)].sort());

  const moved = ['https://bridge-a2.example.test/webhooks', urls[1]!];
  const second = await syncWebhooks(provider, { callbackUrls: moved, stateFile });
  expect(second.webhooks.map((w) => w.action)).toEqual(['updated', 'updated']);
  expect(second.secret).toEqual({ action: 'kept', date_updated: first.secret.date_updated });
  const stored = [...sim.store.webhooks.values()];
  expect(stored.map((w) => w.webhook_callback_url).sort()).toEqual([...moved].sort());
  expect(stored.every((w) => w.event_types.length === first.eventTypes.length)).toBe(true);
});
