/** The spool cannot lie (short writes, torn files) and cannot crash the process. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { DurableFileSystem } from '../../webhook-bridge/durableFile';
import { Spool } from '../../webhook-bridge/spool';

const tempDir = () => fs.mkdtempSync(path.join(os.tmpdir(), 'spool-unit-'));
const entry = (text: string) => ({
  receivedAt: '2026-11-21T10:00:00.000Z',
  batchId: 'b-1',
  body: Buffer.from(text).toString('base64'),
});

function spoolAt(dir: string, quarantined: string[] = [], fileSystem?: DurableFileSystem): Spool {
  return new Spool(dir, {
    resourcesOf: (r) => [`resource/x/${Buffer.from(r.body, 'base64').toString()}`],
    onQuarantine: (name) => quarantined.push(name),
    fileSystem,
  });
}

test('a short write is completed, not renamed into place torn', () => {
  const dir = tempDir();
  // A disk that takes at most 7 bytes per call, as writeSync may do.
  let calls = 0;
  const writeSync = ((fd: number, buffer: Buffer, offset?: number, length?: number) => {
    calls++;
    return fs.writeSync(fd, buffer, offset ?? 0, Math.min(7, length ?? buffer.length - (offset ?? 0)));
  }) as typeof fs.writeSync;
  const spool = spoolAt(dir, [], { ...fs, writeSync });
  const record = spool.append(entry('a'.repeat(100)));
  expect(calls).toBeGreaterThan(10);
  expect(spoolAt(dir).read(`${String(record.seq).padStart(16, '0')}.json`)).toMatchObject({
    body: entry('a'.repeat(100)).body,
  });
});

test('a disk that writes nothing makes append throw and leaves no file', () => {
  const dir = tempDir();
  const spool = spoolAt(dir, [], { ...fs, writeSync: (() => 0) as typeof fs.writeSync });
  expect(() => spool.append(entry('lost'))).toThrow(/wrote 0 of/);
  expect(fs.readdirSync(dir).filter((n) => n.endsWith('.json'))).toEqual([]);
  expect(spool.depth).toBe(0);
});

test('torn and tampered files are quarantined at start; the good ones stay, in order', () => {
  const dir = tempDir();
  const spool = spoolAt(dir);
  spool.append(entry('one'));
  spool.append(entry('two'));
  spool.append(entry('three'));
  const [first, second, third] = spool.entries().map((e) => path.join(dir, e.name));
  const full = fs.readFileSync(first!, 'utf8');
  fs.writeFileSync(first!, full.slice(0, full.length / 2));
  const record = JSON.parse(fs.readFileSync(second!, 'utf8'));
  fs.writeFileSync(second!, JSON.stringify({ ...record, body: Buffer.from('TWO').toString('base64') }));
  const quarantined: string[] = [];
  const reopened = spoolAt(dir, quarantined);
  expect(quarantined).toEqual([path.basename(first!), path.basename(second!)]);
  expect(reopened.entries().map((e) => e.name)).toEqual([path.basename(third!)]);
  expect(fs.readdirSync(path.join(dir, 'quarantine')).sort()).toEqual([path.basename(first!), path.basename(second!)]);
  // New deliveries never reuse the number of a quarantined file.
  expect(reopened.append(entry('four')).seq).toBe(4);
});

test('a file torn after start is quarantined on read, and its resource is released', () => {
  const dir = tempDir();
  const quarantined: string[] = [];
  const spool = spoolAt(dir, quarantined);
  spool.append(entry('r1'));
  const [name] = spool.entries().map((e) => e.name);
  expect(spool.holds(['resource/x/r1'])).toBe(true);
  fs.writeFileSync(path.join(dir, name!), '{"seq":1,"rec');
  expect(spool.read(name!)).toBeUndefined();
  expect(quarantined).toEqual([name]);
  expect(spool.depth).toBe(0);
  expect(spool.holds(['resource/x/r1'])).toBe(false);
});
