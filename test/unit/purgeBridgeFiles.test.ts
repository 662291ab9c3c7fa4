/**
 * `journey purge` erases a case's data wherever this installation keeps it: dead letters and
 * quarantined spool files hold event bodies with names, so those that belong to the case (its id,
 * its people's ids or a provider id of one of its steps appear in them) go with the case file's rows.
 */
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { JourneyClientContext } from '../../client/journeyOperations';
import type { CaseFileStore } from '../../case-file/store';
import { purgeCaseFile } from '../../cli/caseFileCommands';
import { DeadLetterStore } from '../../webhook-bridge/deadLetters';
import { QUARANTINE_DIR } from '../../webhook-bridge/spool';
import { envelope, idvCompleted } from '../support/deliveries';

const caseId = randomUUID();
const requestId = randomUUID();
const otherRequestId = randomUUID();

/** No journey runs: describe finds none. */
const ctx = {
  client: { workflow: { getHandle: () => ({ describe: () => Promise.reject(new Error('not found')) }) } },
} as unknown as JourneyClientContext;

const store = {
  caseRecord: async () => ({
    caseId,
    applicants: [{ personId: 'p-1', name: null }],
    steps: { [`identity-verification/p-1`]: { state: 'completed', providerIds: { identityRequestId: requestId } } },
  }),
  purchases: async () => [],
  purge: async () => ({ documents: 1 }),
} as unknown as CaseFileStore;

test("purging a case removes its dead letters and quarantined files, and no other case's", async () => {
  const spoolDir = mkdtempSync(path.join(os.tmpdir(), 'purge-bridge-'));
  const letters = new DeadLetterStore(spoolDir);
  const refusal = { reason: 'invalid argument', grpcCode: 3 } as never;
  const letter = (id: string) => ({
    receivedAt: new Date().toISOString(),
    batchId: null,
    body: Buffer.from(envelope('IdentityVerification.Completed', idvCompleted(id))),
    workflowIds: [`resource/idv/${id}`],
  });
  const ours = letters.put(letter(requestId), refusal);
  const theirs = letters.put(letter(otherRequestId), refusal);
  mkdirSync(path.join(spoolDir, QUARANTINE_DIR));
  const quarantined = path.join(spoolDir, QUARANTINE_DIR, '0000000000000007.json');
  const otherQuarantined = path.join(spoolDir, QUARANTINE_DIR, '0000000000000008.json');
  const spooled = (id: string) =>
    JSON.stringify({
      seq: 7,
      receivedAt: 'x',
      batchId: null,
      body: Buffer.from(`{"entity_id":"${id}"`).toString('base64'),
    });
  writeFileSync(quarantined, spooled(caseId));
  writeFileSync(otherQuarantined, spooled(randomUUID()));

  const counts = await purgeCaseFile(ctx, store, caseId, spoolDir);
  expect(letters.ids()).toEqual([theirs.id]);
  expect(letters.read(ours.id)).toBeUndefined();
  expect(existsSync(quarantined)).toBe(false);
  expect(existsSync(otherQuarantined)).toBe(true);
  expect(counts).toMatchObject({ documents: 1, bridge_dead_letters: 1, bridge_quarantined: 1 });
});
