/**
 * A case-file writer for the PostgreSQL fault test, run as a child process so that a crash shows
 * as its exit: for each round it puts a document in the case file inside a transaction, says
 * `holding <n>` and waits for `commit <n>` on stdin (the test kills PostgreSQL meanwhile), then
 * commits. A failed write is retried the way Temporal retries an activity, until it lands, and
 * reported `written <n> after <k> attempt(s)`. Ends with `done`.
 */
import { createInterface } from 'node:readline';
import { putDocument, type NewDocument } from '../../case-file/documentRecords';
import { openCaseFile, type CaseFileStore } from '../../case-file/store';
import { inTransaction } from '../../case-file/transaction';

const url = process.env.DATABASE_URL ?? '';
const rounds = Number(process.env.ROUNDS ?? '20');
const RETRY_DEADLINE_MS = 60_000;

const lines = createInterface({ input: process.stdin })[Symbol.asyncIterator]();

async function commitAllowed(round: number): Promise<void> {
  const line = await lines.next();
  if (line.value !== `commit ${round}`)
    throw new Error(`expected "commit ${round}", read ${JSON.stringify(line.value)}`);
}

const documentOf = (round: number): NewDocument => ({
  caseId: `pg-fault-${round}`,
  fileName: `record-${round}.txt`,
  content: Buffer.from(`record ${round}`),
});

/** Retried like an activity: every failure waits a little longer, until the deadline. */
async function retried(write: () => Promise<unknown>): Promise<number> {
  const deadline = Date.now() + RETRY_DEADLINE_MS;
  for (let attempt = 2, backoff = 100; ; attempt++, backoff = Math.min(backoff * 2, 1000)) {
    try {
      await write();
      return attempt;
    } catch (error) {
      if (Date.now() > deadline)
        throw new Error(`write still failing after ${RETRY_DEADLINE_MS} ms: ${(error as Error).message}`, {
          cause: error,
        });
      await new Promise((resolve) => setTimeout(resolve, backoff));
    }
  }
}

async function writeRound(store: CaseFileStore, round: number): Promise<void> {
  const doc = documentOf(round);
  const held = inTransaction(store.pool, async (client) => {
    await putDocument(client, store.cipher, doc);
    console.log(`holding ${round}`);
    await commitAllowed(round);
  });
  const attempts = await held.then(
    () => 1,
    () => retried(() => store.putDocument(doc)),
  );
  console.log(`written ${round} after ${attempts} attempt(s)`);
}

async function main(): Promise<void> {
  const store = await openCaseFile(url, 2);
  for (let round = 0; round < rounds; round++) await writeRound(store, round);
  await store.pool.end();
  console.log('done');
}

main().then(
  () => process.exit(0),
  (error: Error) => {
    console.error(`transaction holder failed: ${error.message}`);
    process.exit(1);
  },
);
