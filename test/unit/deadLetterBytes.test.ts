/**
 * The dead-letter store holds event bodies with names, so it is bounded in bytes: a letter that
 * would take it past its bound is not written (the bridge then keeps the delivery in its spool).
 */
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DeadLetterStore } from '../../webhook-bridge/deadLetters';

const refusal = { kind: 'permanent', reason: 'invalid argument', grpcCode: 3 } as never;
const letter = (bytes: number) => ({
  receivedAt: new Date().toISOString(),
  batchId: null,
  body: Buffer.alloc(bytes, 'x'),
  workflowIds: ['resource/idv/r-1'],
});

test('a letter beyond the byte bound is refused and nothing is written', () => {
  const store = new DeadLetterStore(mkdtempSync(path.join(os.tmpdir(), 'dead-letter-bytes-')), { maxBytes: 8 * 1024 });
  store.put(letter(3000), refusal);
  expect(() => store.put(letter(3000), refusal)).toThrow(/dead-letter store is full/);
  expect(store.count).toBe(1);
  expect(store.bytes()).toBeLessThanOrEqual(8 * 1024);
  store.put(letter(100), refusal);
  expect(store.count).toBe(2);
});
