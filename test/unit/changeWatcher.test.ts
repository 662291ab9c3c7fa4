/**
 * The console's change watcher (case-api/console/changeWatcher.ts): viewers wait until a mark
 * changes; one read of the marks serves every viewer of a tick, whatever their number; a wait
 * ends with null at its timeout or when the viewer leaves.
 */
import { ChangeWatcher, type MarkSource } from '../../case-api/console/changeWatcher';

/** Marks held in memory, with a count of the reads the watcher makes. */
function memorySource() {
  const marks = new Map<string, string>([
    ['a', '1'],
    ['b', '1'],
  ]);
  const reads = { cases: 0, queue: 0 };
  let queue = '2.2';
  const source: MarkSource = {
    caseMarks: async (ids) => {
      reads.cases += 1;
      return new Map(ids.flatMap((id) => (marks.has(id) ? [[id, marks.get(id)!] as const] : [])));
    },
    queueMark: async () => {
      reads.queue += 1;
      return queue;
    },
  };
  return { source, marks, reads, setQueue: (mark: string) => (queue = mark) };
}

test('every viewer of a changed case gets the new mark; viewers of other cases keep waiting', async () => {
  const { source, marks } = memorySource();
  const watcher = new ChangeWatcher(source, 5);
  const viewers = Array.from({ length: 20 }, () => watcher.wait({ caseId: 'a' }, '1', 10_000));
  const other = new AbortController();
  const unchanged = watcher.wait({ caseId: 'b' }, '1', 10_000, other.signal);
  marks.set('a', '2');
  await expect(Promise.all(viewers)).resolves.toEqual(Array(20).fill('2'));
  other.abort();
  await expect(unchanged).resolves.toBeNull();
});

test('one read of the marks serves all the viewers of a tick', async () => {
  const { source, marks, reads } = memorySource();
  const watcher = new ChangeWatcher(source, 5);
  const viewers = [
    ...Array.from({ length: 10 }, () => watcher.wait({ caseId: 'a' }, '1', 10_000)),
    ...Array.from({ length: 10 }, () => watcher.wait({ caseId: 'b' }, '1', 10_000)),
  ];
  marks.set('a', '2');
  marks.set('b', '2');
  await Promise.all(viewers);
  // Each tick reads both cases' marks at once: the reads do not grow with the twenty viewers.
  expect(reads.cases).toBeLessThanOrEqual(2);
  expect(reads.queue).toBe(0);
});

test("a queue viewer sees any change of the queue's mark; a stale mark answers at once; a wait ends at its timeout", async () => {
  const { source, setQueue } = memorySource();
  const watcher = new ChangeWatcher(source, 5);
  await expect(watcher.wait({ queue: true }, 'stale', 10_000)).resolves.toBe('2.2');
  const waiting = watcher.wait({ queue: true }, '2.2', 10_000);
  setQueue('3.7');
  await expect(waiting).resolves.toBe('3.7');
  await expect(watcher.wait({ queue: true }, '3.7', 20)).resolves.toBeNull();
  await expect(watcher.mark({ caseId: 'no-such-case' })).resolves.toBe('none');
});
