/**
 * What saving before answering costs a creating call: the same calls (`POST /_control/cases`)
 * against a simulator in memory and one with a state file, one at a time and 50 at once.
 * `npx tsx bench/simulatorSaveCost.ts [calls]`; prints one JSON line per case.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startSimulator } from '../simulator/startSimulator';

async function measure(stateFile: string | undefined, calls: number, parallel: number) {
  const simulator = await startSimulator({
    port: 0,
    clientId: 'bench',
    clientSecret: 'bench',
    seed: 1,
    tokenLifetimeSeconds: 3600,
    allowInsecureLoopbackCallbacks: true,
    stateFile,
  });
  const create = () =>
    fetch(`${simulator.controlUrl}/cases`, {
      method: 'POST',
      body: '{}',
      headers: { 'content-type': 'application/json' },
    }).then((r) => r.json());
  for (let i = 0; i < 20; i++) await create();
  const started = process.hrtime.bigint();
  for (let done = 0; done < calls; done += parallel) await Promise.all(Array.from({ length: parallel }, create));
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  await simulator.stop();
  return {
    stateFile: Boolean(stateFile),
    parallel,
    calls,
    msPerCall: +(ms / calls).toFixed(3),
    stateBytes: stateFile ? statSync(stateFile).size : 0,
  };
}

async function main() {
  const calls = Number(process.argv[2] ?? 400);
  const dir = mkdtempSync(path.join(os.tmpdir(), 'sim-save-cost-'));
  for (const parallel of [1, 50])
    for (const file of [undefined, path.join(dir, `state-${parallel}.json`)])
      console.log(JSON.stringify(await measure(file, calls, parallel)));
  rmSync(dir, { recursive: true, force: true });
}

void main();
