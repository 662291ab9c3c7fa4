/**
 * The embedded case file: PGlite (PostgreSQL compiled to WASM) served over the Postgres wire
 * protocol, so every process uses the `pg` driver and the same SQL as against a real PostgreSQL.
 *
 * PGlite is one backend session. pglite-socket accepts several connections and runs their
 * protocol messages one at a time through one queue; while a transaction is open it runs only
 * the messages of the connection that opened it. Messages of two connections can still interleave
 * outside a transaction (the Parse of one between the Parse and Bind of the other), so the store
 * runs every statement inside BEGIN … COMMIT (`case-file/transaction.ts`), and each process keeps
 * one connection (`EMBEDDED_POOL_SIZE`): a bigger pool buys nothing against one backend.
 */
import { privateDirectory } from '../config/privateFiles';
import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { embeddedCaseFileUrl } from './config';

export interface EmbeddedCaseFile {
  url: string;
  port: number;
  stop(): Promise<void>;
}

/** Processes that may be connected at once: the stack, an operator CLI, a case API. */
const MAX_CONNECTIONS = 16;

/** Starts PGlite on `dataDir` (in memory when unset) and listens on 127.0.0.1:`port` (0: any free port). */
export async function startEmbeddedCaseFile(
  options: { dataDir?: string; port?: number } = {},
): Promise<EmbeddedCaseFile> {
  if (options.dataDir) privateDirectory(options.dataDir);
  const db = await PGlite.create(options.dataDir ? { dataDir: options.dataDir } : {});
  const server = new PGLiteSocketServer({
    db,
    host: '127.0.0.1',
    port: options.port ?? 0,
    maxConnections: MAX_CONNECTIONS,
  });
  try {
    await server.start();
  } catch (error) {
    await db.close();
    throw error;
  }
  const port = Number(server.getServerConn().split(':').pop());
  return {
    url: embeddedCaseFileUrl(port),
    port,
    async stop() {
      await server.stop();
      await db.close();
    },
  };
}
