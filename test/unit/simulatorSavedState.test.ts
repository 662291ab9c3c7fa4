/** The simulator's saved state: what is saved comes back whole, and a damaged file is named, not half-read. */
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { restoreState, StateSaver } from '../../simulator/savedState';
import { SeededRandom } from '../../simulator/seededRandom';
import { addCase, createStore, seedStore } from '../../simulator/store';

const file = () => path.join(mkdtempSync(path.join(os.tmpdir(), 'sim-state-')), 'state.json');

test('a saved store restores its records, its first answers and its generator position', () => {
  const store = createStore(new SeededRandom(7));
  seedStore(store);
  store.idempotencyRecords.set('["client","POST /x","k1"]', {
    path: '/x',
    body: { a: 1 },
    answer: { status: 201, contentType: 'application/json', body: Buffer.from('{"id":"é"}') },
  });
  store.idempotencyRecords.set('["client","POST /x","k2"]', { path: '/x', body: {} });
  store.webhookSecret = { secret: 'sëcret', date_updated: '2026-11-21T00:00:00Z' };
  const target = file();
  new StateSaver(store, target).flush();

  const restored = createStore(new SeededRandom(999));
  expect(restoreState(restored, target)).toBe(true);
  expect([...restored.persons.values()]).toEqual([...store.persons.values()]);
  expect(restored.registry).toEqual(store.registry);
  expect(restored.webhookSecret).toEqual(store.webhookSecret);
  expect(restored.idempotencyRecords.get('["client","POST /x","k1"]')?.answer?.body.toString()).toBe('{"id":"é"}');
  // A call still being handled when saved is forgotten: its retry runs instead of waiting for ever.
  expect(restored.idempotencyRecords.has('["client","POST /x","k2"]')).toBe(false);
  // The generator continues where it was: the next ids are the ones the first store would hand out.
  expect(addCase(restored).case_id).toBe(addCase(store).case_id);
});

test('no file: nothing restored; a damaged file stops the start, naming it and what to do', () => {
  const store = createStore(new SeededRandom(1));
  const missing = file();
  expect(restoreState(store, missing)).toBe(false);
  writeFileSync(missing, '{"version":1,"randomPos');
  expect(() => restoreState(store, missing)).toThrow(
    new RegExp(
      `SIMULATOR_STATE_FILE: ${missing.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} is not readable JSON.*move it away`,
    ),
  );
  writeFileSync(missing, '{"version":2}');
  expect(() => restoreState(store, missing)).toThrow(/is not a saved simulator state/);
});
