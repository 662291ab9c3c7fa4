/**
 * Every statement of the store runs in a transaction: writes are atomic (an account and its
 * transactions land together), and against the embedded PGlite an open transaction is what keeps
 * another connection's protocol messages from interleaving with ours (embeddedServer.ts).
 */
import type { Pool, PoolClient } from 'pg';

export async function inTransaction<T>(pool: Pool, work: (client: PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}
