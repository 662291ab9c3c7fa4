/**
 * Where deliveries, dead letters, the case file and Temporal's SQLite live, the files are 0600 and
 * the directories 0700 wherever they are configured (a spool outside `.data/` included), whatever
 * the umask, and a directory left world-readable by an earlier release is tightened.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startDevServer } from '../../cli/devServer';
import { resolveTemporalCli } from '../../cli/temporalCli';
import { projectRoot } from '../../config/projectRoot';
import { DeadLetterStore } from '../../webhook-bridge/deadLetters';
import { Spool } from '../../webhook-bridge/spool';

const mode = (file: string) => statSync(file).mode & 0o777;
const modeIfPresent = (file: string) => {
  const stat = statSync(file, { throwIfNoEntry: false });
  return stat === undefined ? undefined : stat.mode & 0o777;
};
let root: string;
let umask: number;

beforeAll(() => {
  umask = process.umask(0o022);
  root = mkdtempSync(path.join(os.tmpdir(), 'private-files-'));
});
afterAll(() => void process.umask(umask));

test('the spool and its deliveries, configured anywhere: directory 0700, files 0600; an old 0755 directory is tightened', () => {
  const dir = path.join(root, 'spool');
  mkdirSync(dir, { mode: 0o755 });
  const spool = new Spool(dir, { resourcesOf: () => ['resource/x'] });
  spool.append({ receivedAt: new Date().toISOString(), batchId: null, body: Buffer.from('{}').toString('base64') });
  expect(mode(dir)).toBe(0o700);
  const files = readdirSync(dir).filter((name) => name.endsWith('.json'));
  expect(files).toHaveLength(1);
  expect(mode(path.join(dir, files[0]!))).toBe(0o600);
});

test('dead letters: directory 0700, files 0600', () => {
  const store = new DeadLetterStore(path.join(root, 'spool-dl'));
  store.put(
    { receivedAt: new Date().toISOString(), batchId: null, body: Buffer.from('{}'), workflowIds: ['resource/x'] },
    { kind: 'permanent', grpcCode: 3, reason: 'test' },
  );
  expect(readdirSync(store.dir).length).toBeGreaterThan(0);
  expect(mode(store.dir)).toBe(0o700);
  for (const name of readdirSync(store.dir)) expect(mode(path.join(store.dir, name))).toBe(0o600);
});

test("the embedded case file's data directory is 0700", () => {
  // PGlite cannot start inside jest's VM: a node process of its own starts and stops it.
  const dataDir = path.join(root, 'case-file');
  const script = `require('./case-file/embeddedServer').startEmbeddedCaseFile({ dataDir: ${JSON.stringify(dataDir)} }).then((c) => c.stop())`;
  execFileSync(process.execPath, ['--import', 'tsx', '-e', script], {
    cwd: projectRoot,
    stdio: 'pipe',
    timeout: 60_000,
  });
  expect(mode(dataDir)).toBe(0o700);
}, 70_000);

test('the dev server creates its SQLite database and the files beside it 0600', async () => {
  const dbFile = path.join(root, 'temporal', 'temporal.sqlite');
  const server = await startDevServer({
    cliPath: await resolveTemporalCli(),
    dbFile,
    logFile: path.join(root, 'temporal.log'),
  });
  try {
    expect(mode(path.dirname(dbFile))).toBe(0o700);
    const files = readdirSync(path.dirname(dbFile));
    expect(files).toContain('temporal.sqlite');
    // SQLite's journal comes and goes with each transaction: one listed may be gone when it is looked at.
    const modes = files.map((name) => [name, modeIfPresent(path.join(path.dirname(dbFile), name))]);
    for (const [name, found] of modes.filter(([, found]) => found !== undefined))
      expect([name, found]).toEqual([name, 0o600]);
  } finally {
    await server.stop();
  }
}, 90_000);
