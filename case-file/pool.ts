/** The `pg` pool of a process. One connection against the embedded PGlite (one backend); more against PostgreSQL. */
import pg from 'pg';

/** Numeric and date columns come back as JS values the summaries can use (amounts fit a double). */
pg.types.setTypeParser(pg.types.builtins.NUMERIC, (value) => Number(value));
pg.types.setTypeParser(pg.types.builtins.DATE, (value) => value);

/** One backend behind the embedded server: one connection per process (embeddedServer.ts). */
export const EMBEDDED_POOL_SIZE = 1;

export function openPool(url: string, max: number): pg.Pool {
  const pool = new pg.Pool({ connectionString: url, max, idleTimeoutMillis: 10_000 });
  // An idle connection that dies (the database restarted) must not crash the process.
  pool.on('error', () => undefined);
  return pool;
}
