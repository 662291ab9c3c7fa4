/** The dead-letter store and the operator's list and replay. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DeadLetterStore } from '../../webhook-bridge/deadLetters';
import { listDeadLetters, replayDeadLetter } from '../../webhook-bridge/deadLetterReplay';
import type { RoutedDelivery } from '../../webhook-bridge/routeDelivery';
import { envelope, idvCompleted } from '../support/deliveries';

const refusal = { kind: 'permanent' as const, grpcCode: 3, reason: 'Blob data size exceeds limit.' };
const store = () => new DeadLetterStore(fs.mkdtempSync(path.join(os.tmpdir(), 'dead-letters-')));
const body = Buffer.from(envelope('IdentityVerification.Completed', idvCompleted('req-dl')));

test('a letter is listed without its payload, and replayed once Temporal takes it', async () => {
  const letters = store();
  const letter = letters.put(
    { receivedAt: '2026-11-21T10:00:00.000Z', batchId: 'b', body, workflowIds: ['resource/idv/req-dl'] },
    refusal,
  );
  const listed = listDeadLetters(letters);
  expect(listed).toEqual([
    {
      id: letter.id,
      deadLetteredAt: letter.deadLetteredAt,
      reason: refusal.reason,
      grpcCode: 3,
      workflowIds: ['resource/idv/req-dl'],
      receivedAt: '2026-11-21T10:00:00.000Z',
      batchId: 'b',
      bytes: body.length,
    },
  ]);
  expect(JSON.stringify(listed)).not.toContain('Lovelace');

  const signalled: RoutedDelivery[] = [];
  await expect(replayDeadLetter(letters, letter.id, async (routed) => void signalled.push(routed))).resolves.toEqual({
    outcome: 'replayed',
    workflowIds: ['resource/idv/req-dl'],
  });
  expect(signalled[0]).toMatchObject({
    eventType: 'IdentityVerification.Completed',
    targets: [{ resource: { kind: 'idv', id: 'req-dl' }, delivery: { batchId: 'b', parse: 'known' } }],
  });
  expect(letters.count).toBe(0);
});

test('refused again, a letter stays; unknown or malformed ids are not found', async () => {
  const letters = store();
  const letter = letters.put({ receivedAt: '2026-11-21T10:00:00.000Z', batchId: null, body, workflowIds: [] }, refusal);
  const refuse = async () => {
    throw Object.assign(new Error('still too large'), { code: 3 });
  };
  await expect(replayDeadLetter(letters, letter.id, refuse)).resolves.toEqual({
    outcome: 'refused',
    grpcCode: 3,
    reason: 'still too large',
  });
  expect(letters.count).toBe(1);
  await expect(replayDeadLetter(letters, '0000000000000-00000000', refuse)).resolves.toEqual({ outcome: 'not-found' });
  await expect(replayDeadLetter(letters, '../../etc/passwd', refuse)).resolves.toEqual({ outcome: 'not-found' });
});

test('a letter whose bytes were altered on disk is not replayed', async () => {
  const letters = store();
  const letter = letters.put({ receivedAt: '2026-11-21T10:00:00.000Z', batchId: null, body, workflowIds: [] }, refusal);
  const file = path.join(letters.dir, `${letter.id}.json`);
  fs.writeFileSync(
    file,
    JSON.stringify({ ...JSON.parse(fs.readFileSync(file, 'utf8')), body: Buffer.from('{}').toString('base64') }),
  );
  await expect(replayDeadLetter(letters, letter.id, async () => undefined)).resolves.toEqual({ outcome: 'not-found' });
});
