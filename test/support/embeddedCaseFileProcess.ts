/**
 * The embedded case file (PGlite served over the wire protocol, as `npm start` serves it) as a
 * process of its own: `startEmbeddedCaseFile` on CASE_FILE_DATA_DIR (in memory when unset) and
 * CASE_FILE_PORT (any free port when unset), then `case file serving <url>` on stdout. The fault test
 * SIGKILLs it; the store test gets a case file of its own from it (PGlite cannot start inside
 * jest's module sandbox: its dynamic import needs --experimental-vm-modules).
 *
 * With HOLD_COMMIT_AFTER=<table> set, the COMMIT of the first transaction that inserted into that
 * table is held back (never run) and `holding commit <table>` is printed: the test kills the process
 * then, so the kill lands inside a write whose rows PGlite has applied but not committed.
 */
import { PGlite } from '@electric-sql/pglite';
import { startEmbeddedCaseFile } from '../../case-file/embeddedServer';

const dataDir = process.env.CASE_FILE_DATA_DIR || undefined;
const port = Number(process.env.CASE_FILE_PORT ?? '0');
const holdAfter = process.env.HOLD_COMMIT_AFTER;

/** The protocol messages PGlite runs, one at a time (pglite-socket's queue), watched for the write to hold. */
function holdCommitAfterInsertInto(table: string): void {
  const run = PGlite.prototype.execProtocolRawStream;
  const insert = `INSERT INTO ${table} `;
  let inserted = false;
  let held = false;
  PGlite.prototype.execProtocolRawStream = function (this: PGlite, message, options) {
    const type = String.fromCharCode(message[0] ?? 0);
    const text = type === 'P' || type === 'Q' ? Buffer.from(message).toString('utf8') : '';
    if (text.includes(insert)) inserted = true;
    if (!held && inserted && type === 'Q' && /\bCOMMIT\b/.test(text)) {
      held = true;
      console.log(`holding commit ${table}`);
      return new Promise<void>(() => undefined);
    }
    return run.call(this, message, options);
  };
}

async function main(): Promise<void> {
  if (!Number.isInteger(port) || port < 0) throw new Error(`CASE_FILE_PORT is not a port: ${process.env.CASE_FILE_PORT}`);
  if (holdAfter) holdCommitAfterInsertInto(holdAfter);
  const caseFile = await startEmbeddedCaseFile({ dataDir, port });
  console.log(`case file serving ${caseFile.url}`);
  const stop = () => void caseFile.stop().then(() => process.exit(0));
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

main().catch((error: Error) => {
  console.error(`embedded case file failed: ${error.message}`);
  process.exit(1);
});
