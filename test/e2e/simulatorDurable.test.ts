/**
 * The simulator does not forget: every id it answered is still known after SIGKILL right after the
 * answers, and a restarted simulator never issues an id it issued before. The simulator runs as
 * the process `npm run simulator` starts, with a fixed seed (so a restart from a stale position
 * would draw the very same ids again).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../../cli/freePort';
import { waitUntil } from '../support/waitUntil';

const root = path.resolve(__dirname, '../..');
let dir: string;
let running: ChildProcess | undefined;

beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'simulator-durable-'));
});
afterEach(() => {
  running?.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

/** Starts the simulator process on its state file; answers its control URL once it is ready. */
async function startSimulatorProcess(port: number): Promise<string> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'simulator/main.ts'], {
    cwd: root,
    env: {
      ...process.env,
      SIMULATOR_PORT: String(port),
      SIMULATOR_SEED: '4242',
      SIMULATOR_STATE_FILE: path.join(dir, 'state.json'),
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  running = child;
  let out = '';
  child.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()));
  return waitUntil('the simulator is ready', () => /"control_url":"([^"]+)"/.exec(out)?.[1], { timeoutMs: 45_000 });
}

async function killHard(): Promise<void> {
  const child = running!;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;
  running = undefined;
}

const post = async (url: string, body: unknown) => {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(response.status).toBeLessThan(300);
  return (await response.json()) as Record<string, string>;
};

/** Twenty people and twenty cases created at once; their answered ids. */
async function createSome(control: string): Promise<string[]> {
  const answers = await Promise.all(
    Array.from({ length: 20 }, (_, i) =>
      i % 2
        ? post(`${control}/persons`, {}).then((p) => p.person_id!)
        : post(`${control}/cases`, {}).then((c) => c.case_id!),
    ),
  );
  return answers;
}

async function knownIds(control: string): Promise<Set<string>> {
  const people = (await (await fetch(`${control}/persons`)).json()) as { person_id: string }[];
  const cases = (await (await fetch(`${control}/cases`)).json()) as { case_id: string }[];
  return new Set([...people.map((p) => p.person_id), ...cases.map((c) => c.case_id)]);
}

test('ids answered before a SIGKILL are known after the restart, and none is issued twice', async () => {
  const port = await freePort();
  const issued: string[] = [];
  for (let round = 0; round < 3; round++) {
    const control = await startSimulatorProcess(port);
    const known = await knownIds(control);
    // Every id answered in an earlier round is still known.
    expect(issued.filter((id) => !known.has(id))).toEqual([]);
    const created = await createSome(control);
    // SIGKILL the moment the last answer is in: no stop, no final save.
    await killHard();
    issued.push(...created);
    // Never the same id twice, within a round or across restarts.
    expect(new Set(issued).size).toBe(issued.length);
  }
  const control = await startSimulatorProcess(port);
  const known = await knownIds(control);
  expect(issued.filter((id) => !known.has(id))).toEqual([]);
}, 180_000);
