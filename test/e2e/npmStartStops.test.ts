/**
 * `npm start -- --keep` stops when asked: once the stack is up, Ctrl-C (SIGINT to the terminal's
 * process group) or SIGTERM to the process group (as a process manager stops a service) ends it
 * within a second, the Temporal dev server included, and leaves no process behind.
 * The stack runs on ports and files of its own. (npm does not pass a SIGTERM sent to it alone on
 * to the script, so the group is what a stop must signal.)
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../../cli/freePort';
import { markedProcesses, newProcessMarker, processesLeftAfter, PROCESS_MARKER } from '../support/markedProcesses';
import { waitUntil } from '../support/waitUntil';

const root = path.resolve(__dirname, '../..');
let dir: string;
let marker: string;

beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'npm-start-stops-'));
  marker = newProcessMarker();
});
afterEach(() => {
  for (const pid of markedProcesses(marker)) process.kill(pid, 'SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

/** Each signal to the whole process group, as a terminal or a process manager sends it. */
const stops = [
  { how: 'Ctrl-C', signal: 'SIGINT', exitCode: 130, ready: 'stack is up (--keep)' },
  { how: 'SIGTERM', signal: 'SIGTERM', exitCode: 143, ready: 'stack is up (--keep)' },
] as const;

test.each(stops)(
  '$how stops `npm start -- --keep` within a second, leaving no process',
  async (stop) => {
    const ports = await Promise.all(Array.from({ length: 7 }, () => freePort()));
    const names = ['TEMPORAL_DEV_PORT', 'TEMPORAL_UI_PORT', 'SIMULATOR_PORT', 'BRIDGE_PORT', 'CODEC_SERVER_PORT'];
    const env: Record<string, string> = {
      ...(process.env as Record<string, string>),
      ...Object.fromEntries([...names, 'CASE_API_PORT', 'CASE_FILE_PORT'].map((name, i) => [name, String(ports[i])])),
      TEMPORAL_DB_FILE: path.join(dir, 'temporal.sqlite'),
      SIMULATOR_STATE_FILE: path.join(dir, 'simulator-state.json'),
      CASE_FILE_DATA_DIR: path.join(dir, 'case-file'),
      BRIDGE_SPOOL_DIR: path.join(dir, 'spool'),
      [PROCESS_MARKER]: marker,
    };
    // A process group of its own, as a terminal gives a command: Ctrl-C signals the whole group.
    const npm = spawn('npm', ['start', '--', '--keep'], {
      cwd: root,
      env,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    npm.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()));
    npm.stderr!.on('data', (chunk: Buffer) => (out += chunk.toString()));
    const exited = new Promise<{ code: number | null; signal: string | null; at: number }>((resolve) =>
      npm.once('exit', (code, signal) => resolve({ code, signal, at: Date.now() })),
    );
    await waitUntil(`the output says "${stop.ready}"`, () => out.includes(stop.ready), {
      timeoutMs: 240_000,
      intervalMs: 200,
    });
    const sent = Date.now();
    process.kill(-npm.pid!, stop.signal);
    const { code, signal, at } = await exited;
    // npm ends as its script did: by the signal itself, or with the shell's code for it.
    expect({ stopped: code === stop.exitCode || signal === stop.signal, withinASecond: at - sent < 1_000 }).toEqual({
      stopped: true,
      withinASecond: true,
    });
    expect(await processesLeftAfter(marker, 1_000)).toEqual([]);
  },
  300_000,
);
