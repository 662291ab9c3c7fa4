/**
 * Fault suite: PostgreSQL SIGKILLed while a case-file transaction holds a connection,
 * 20 times in a loop. A connection that dies while checked out must not end the process (pg takes
 * the pool's error listener off a checked-out client); the write fails, is retried once the
 * database is back, and lands. The writer is a child process (transactionHolder.ts) so that a
 * crash is seen as its exit: 0 crashes, every record in the case file afterwards.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { openCaseFile } from '../../case-file/store';
import { startThrowawayPostgres, type ThrowawayPostgres } from '../support/faultHarness/throwawayPostgres';

const ROUNDS = 20;
const root = path.join(__dirname, '..', '..');
let postgres: ThrowawayPostgres;
let holder: ChildProcessWithoutNullStreams | undefined;

afterAll(() => {
  if (holder && holder.exitCode === null) holder.kill('SIGKILL');
  postgres?.remove();
});

/** The holder's stdout, line by line; waits for a line with a deadline, failing on its exit. */
function holderLines(child: ChildProcessWithoutNullStreams) {
  const seen: string[] = [];
  const waiters: Array<() => void> = [];
  let exit: string | undefined;
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4000)));
  createInterface({ input: child.stdout }).on('line', (line) => {
    seen.push(line);
    waiters.splice(0).forEach((wake) => wake());
  });
  child.once('exit', (code, signal) => {
    exit = `exited with ${signal ?? code}`;
    waiters.splice(0).forEach((wake) => wake());
  });
  return {
    seen,
    async next(prefix: string, timeoutMs = 90_000): Promise<string> {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = seen.find((line) => line.startsWith(prefix));
        if (found) return found;
        if (exit)
          throw new Error(`the writer ${exit} before "${prefix}": ${stderr.trim().split('\n').slice(-3).join(' | ')}`);
        if (Date.now() > deadline) throw new Error(`no "${prefix}" from the writer within ${timeoutMs} ms`);
        await new Promise<void>((wake) => {
          const timer = setTimeout(wake, deadline - Date.now());
          waiters.push(() => {
            clearTimeout(timer);
            wake();
          });
        });
      }
    },
  };
}

test(`PostgreSQL killed inside a transaction ${ROUNDS} times: the writer survives and every record is written after recovery`, async () => {
  postgres = await startThrowawayPostgres();
  holder = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'test/support/transactionHolder.ts')], {
    cwd: root,
    env: { ...process.env, DATABASE_URL: postgres.url, ROUNDS: String(ROUNDS) },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const lines = holderLines(holder);
  let retried = 0;
  for (let round = 0; round < ROUNDS; round++) {
    await lines.next(`holding ${round}`);
    await postgres.kill();
    postgres.start();
    holder.stdin.write(`commit ${round}\n`);
    const written = await lines.next(`written ${round} `);
    if (!written.endsWith('after 1 attempt(s)')) retried++;
  }
  await lines.next('done');
  holder.stdin.end();
  const exitCode = await new Promise<number | null>((resolve) =>
    holder!.exitCode !== null ? resolve(holder!.exitCode) : holder!.once('exit', resolve),
  );
  expect(exitCode).toBe(0);
  // Every transaction held a connection PostgreSQL lost: none could commit at the first attempt.
  expect(retried).toBe(ROUNDS);

  const store = await openCaseFile(postgres.url, 1);
  try {
    for (let round = 0; round < ROUNDS; round++) {
      const { documents } = await store.evidence(`pg-fault-${round}`);
      expect(documents.map((d) => d.file_name)).toEqual([`record-${round}.txt`]);
      expect((await store.readDocument(documents[0]!.document_id))?.content.toString()).toBe(`record ${round}`);
    }
  } finally {
    await store.pool.end();
  }
}, 300_000);
