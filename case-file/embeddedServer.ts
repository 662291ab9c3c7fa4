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
 *
 * pglite-socket has no authentication: it listens on a Unix socket in a private (0700) temporary
 * folder, and clients reach it on 127.0.0.1 through a gate that asks for the password
 * (passwordGate.ts). The data directory's files are 0600, its folders 0700 (privateDataDir.ts).
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { privateDirectory } from '../config/privateFiles';
import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { embeddedCaseFileUrl } from './config';
import { startPasswordGate } from './passwordGate';
import { keepCreatedFilesPrivate, tightenTree } from './privateDataDir';

export interface EmbeddedCaseFile {
  url: string;
  port: number;
  stop(): Promise<void>;
}

/** Processes that may be connected at once: the stack, an operator CLI, a case API. */
const MAX_CONNECTIONS = 16;

/**
 * Starts PGlite on `dataDir` (in memory when unset) and listens on 127.0.0.1:`port` (0: any free
 * port) for clients that give `password` (unset: a new random one, in the answered URL).
 */
export async function startEmbeddedCaseFile(
  options: { dataDir?: string; port?: number; password?: string } = {},
): Promise<EmbeddedCaseFile> {
  const password = options.password ?? randomBytes(24).toString('base64url');
  const db = await openPGlite(options.dataDir);
  const socketFolder = mkdtempSync(path.join(tmpdir(), 'case-file-'));
  const server = new PGLiteSocketServer({ db, path: path.join(socketFolder, 's'), maxConnections: MAX_CONNECTIONS });
  const stopped = async () => {
    await server.stop();
    await db.close();
    rmSync(socketFolder, { recursive: true, force: true });
  };
  try {
    await server.start();
    const gate = await startPasswordGate({
      host: '127.0.0.1',
      port: options.port ?? 0,
      password,
      socketPath: path.join(socketFolder, 's'),
    });
    return {
      url: embeddedCaseFileUrl(gate.port, password),
      port: gate.port,
      async stop() {
        await gate.stop();
        await stopped();
      },
    };
  } catch (error) {
    await stopped();
    throw error;
  }
}

async function openPGlite(dataDir: string | undefined): Promise<PGlite> {
  if (!dataDir) return PGlite.create({});
  privateDirectory(dataDir);
  const db = await PGlite.create({ dataDir });
  keepCreatedFilesPrivate(db);
  tightenTree(dataDir);
  return db;
}
