/** The id lease: a simulator restarted from an older saved position never draws an id it drew before. */
import { existsSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { LEASE_DRAWS, leaseDraws } from '../../simulator/idLease';
import { SeededRandom } from '../../simulator/seededRandom';

const leaseFile = () => path.join(mkdtempSync(path.join(os.tmpdir(), 'sim-lease-')), 'state.json.ids');

test('a restart resumes past every draw the stopped generator may have made', () => {
  const file = leaseFile();
  const first = new SeededRandom(7);
  leaseDraws(first, file);
  const saved = first.position;
  // Drawn after the last save (a webhook's delivery id, say), then the process is killed.
  const drawn = new Set(Array.from({ length: 100 }, () => first.guid()));

  const restarted = new SeededRandom(7);
  restarted.position = saved;
  leaseDraws(restarted, file);
  const next = Array.from({ length: 100 }, () => restarted.guid());
  expect(next.filter((id) => drawn.has(id))).toEqual([]);
});

test('a lease is renewed before its draws run out, so a later restart is past them too', () => {
  const file = leaseFile();
  const first = new SeededRandom(9);
  leaseDraws(first, file);
  const start = first.position;
  const drawn = new Set<string>();
  // Past the first lease: 32 draws a GUID.
  for (let i = 0; i < LEASE_DRAWS / 32 + 50; i++) drawn.add(first.guid());

  const restarted = new SeededRandom(9);
  restarted.position = start;
  leaseDraws(restarted, file);
  expect(Array.from({ length: 100 }, () => restarted.guid()).filter((id) => drawn.has(id))).toEqual([]);
});

test('the first lease makes the state file folder, which the first save has not made yet', () => {
  const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'sim-lease-')), 'not-yet', 'state.json.ids');
  const random = new SeededRandom(11);
  leaseDraws(random, file);
  random.guid();
  expect(existsSync(file)).toBe(true);
});
