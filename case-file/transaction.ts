/**
 * Every statement of the store runs in a transaction: writes are atomic (an account and its
 * transactions land together), and against the embedded PGlite an open transaction is what keeps
 * another connection's protocol messages from interleaving with ours (embeddedServer.ts).
 *
 * While a client is checked out, pg takes the pool's 'error' listener off it: a connection that
 * dies then (the database killed or restarted mid-transaction) would emit an 'error' nobody
 * listens to, which ends the process. The client gets a listener of its own for as long as it is
 * out, the transaction fails with the connection's error (the caller, an activity, is retried),
 * and a client that lost its connection or could not roll back is destroyed, not pooled again.
 */
import type { Pool, PoolClient } from 'pg';

export async function inTransaction<T>(pool: Pool, work: (client: PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  let broken: Error | undefined;
  const connectionLost = (error: Error) => void (broken ??= error);
  client.on('error', connectionLost);
  try {
    await client.query('BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    if (!broken) await client.query('ROLLBACK').catch((rollbackError: Error) => void (broken ??= rollbackError));
    throw broken ?? error;
  } finally {
    client.off('error', connectionLost);
    client.release(broken);
  }
}
