/**
 * The embedded case file (PGlite served over the wire protocol, as `npm start` serves it) as a
 * process of its own: `startEmbeddedCaseFile` on CASE_FILE_DATA_DIR (in memory when unset) and
 * CASE_FILE_PORT (any free port when unset), then `case file serving <url>` on stdout. The fault test
 * SIGKILLs it; the store test gets a case file of its own from it (PGlite cannot start inside
 * jest's module sandbox: its dynamic import needs --experimental-vm-modules).
 *
 * With HOLD_COMMIT_AFTER=<table> set, the COMMIT of the first transaction that inserted into that
 * table is held back (never run) and `holding commit <table> case=<id> rows=<n> statements=<k>` is
 * printed: the test kills the process then, so the kill lands inside a write whose rows PGlite has
 * applied but not committed.
 */
import { PGlite } from '@electric-sql/pglite';
import { embeddedCaseFilePassword } from '../../case-file/config';
import { startEmbeddedCaseFile } from '../../case-file/embeddedServer';

const dataDir = process.env.CASE_FILE_DATA_DIR || undefined;
/**
 * The password `npm start` serves with (`.data/case-file-password`): a worker process configured by
 * CASE_FILE_PORT alone reaches this one too, and so does everyone after a restart on the same port.
 */
const password = embeddedCaseFilePassword();
const port = Number(process.env.CASE_FILE_PORT ?? '0');
const holdAfter = process.env.HOLD_COMMIT_AFTER;

/** The first parameter of a Bind message (`B`, length, portal, statement, formats, parameters), as text. */
function firstParameter(message: Uint8Array): string | undefined {
  const bytes = Buffer.from(message);
  let at = 5;
  for (let names = 0; names < 2; names++) at = bytes.indexOf(0, at) + 1; // portal and statement names
  const formats = bytes.readInt16BE(at);
  at += 2 + 2 * formats;
  if (bytes.readInt16BE(at) < 1) return undefined;
  const length = bytes.readInt32BE(at + 2);
  return length < 0 ? undefined : bytes.subarray(at + 6, at + 6 + length).toString('utf8');
}

/** The first column of the first DataRow (`D`) in a backend's answer, as text. */
function firstValue(answer: Buffer): string | undefined {
  for (let at = 0; at + 5 <= answer.length; at += 1 + answer.readInt32BE(at + 1)) {
    if (answer[at] !== 'D'.charCodeAt(0)) continue;
    const length = answer.readInt32BE(at + 7);
    return length < 0 ? undefined : answer.subarray(at + 11, at + 11 + length).toString('utf8');
  }
  return undefined;
}

/**
 * The protocol messages PGlite runs, one at a time (pglite-socket's queue; inside a transaction only
 * that connection's), watched for the write to hold: the statements of a transaction that inserts
 * into `table` run, its COMMIT never does. What the open transaction holds is read in it (PGlite is
 * one session), and `holding commit <table> case=<id> rows=<n> statements=<k>` says so: the case id
 * is the insert's first parameter (the store's inserts take it first), `rows` the table's rows of
 * that case the transaction sees, `statements` how many it ran.
 */
function holdCommitAfterInsertInto(table: string): void {
  const run = PGlite.prototype.execProtocolRawStream;
  const insert = `INSERT INTO ${table} `;
  let parsed = false;
  let held: string | undefined;
  let statements = 0;
  let holding = false;
  PGlite.prototype.execProtocolRawStream = function (this: PGlite, message, options) {
    if (holding) return run.call(this, message, options);
    const type = String.fromCharCode(message[0] ?? 0);
    const text = type === 'P' || type === 'Q' ? Buffer.from(message).toString('utf8') : '';
    if (type === 'Q' && /\bBEGIN\b/.test(text)) {
      // A transaction of its own, whatever came before.
      held = undefined;
      statements = 0;
    }
    if (type === 'E') statements++;
    if (type === 'P') parsed = text.includes(insert);
    else if (type === 'B' && parsed && held === undefined) held = firstParameter(message) ?? '';
    else if (type === 'Q' && held !== undefined && /\bCOMMIT\b/.test(text)) {
      holding = true;
      const caseId = held;
      // On the wire protocol, as the socket speaks to PGlite (its query API would wait for the transaction).
      const sql = `SELECT count(*) FROM ${table} WHERE case_id = '${caseId.replace(/'/g, "''")}'`;
      const query = Buffer.alloc(6 + Buffer.byteLength(sql));
      query.write('Q', 0);
      query.writeInt32BE(query.length - 1, 1);
      query.write(sql, 5);
      let answer = Buffer.alloc(0);
      void run
        .call(this, query, { onRawData: (data: Uint8Array) => void (answer = Buffer.concat([answer, data])) })
        .then(() =>
          console.log(`holding commit ${table} case=${caseId} rows=${firstValue(answer)} statements=${statements}`),
        );
      return new Promise<void>(() => undefined);
    }
    return run.call(this, message, options);
  };
}

async function main(): Promise<void> {
  if (!Number.isInteger(port) || port < 0)
    throw new Error(`CASE_FILE_PORT is not a port: ${process.env.CASE_FILE_PORT}`);
  if (holdAfter) holdCommitAfterInsertInto(holdAfter);
  const caseFile = await startEmbeddedCaseFile({ dataDir, port, password });
  console.log(`case file serving ${caseFile.url}`);
  const stop = () => void caseFile.stop().then(() => process.exit(0));
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

main().catch((error: Error) => {
  console.error(`embedded case file failed: ${error.message}`);
  process.exit(1);
});
