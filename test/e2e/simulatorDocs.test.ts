/** docs/simulator.md documents every control call the simulator lists at GET /_control. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { startSimulator, type RunningSimulator } from '../../simulator/startSimulator';

let simulator: RunningSimulator;

beforeAll(async () => {
  simulator = await startSimulator({
    port: 0,
    clientId: 'docs',
    clientSecret: 'docs-secret',
    seed: 7,
    tokenLifetimeSeconds: 60,
    allowInsecureLoopbackCallbacks: true,
    processingDelayMs: 10,
  });
});

afterAll(async () => {
  await simulator?.stop();
});

test('every control call is on the page, with its method', async () => {
  const calls = (await (await fetch(simulator.controlUrl)).json()) as { method: string; path: string }[];
  expect(calls.length).toBeGreaterThan(15);
  const page = readFileSync(path.join(__dirname, '../../docs/simulator.md'), 'utf8');
  const missing = calls
    .map((c) => `${c.method} ${c.path}`)
    .filter((line) => !page.includes(`\`${line}\``) && !page.includes(`\`${line}?`));
  expect(missing).toEqual([]);
});
