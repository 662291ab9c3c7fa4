/**
 * Pins the case file's clock (`case_file_clock()`, migration 014) for the rest of a transaction:
 * every step transition and audit entry the transaction writes is stamped with `at` instead of the
 * transaction's start. For writing past journeys with their own times (an import, a test of known
 * timings); the journey's own writes never pin it.
 */
import type { PoolClient } from 'pg';

export async function pinCaseFileClock(client: PoolClient, at: Date): Promise<void> {
  await client.query(`SELECT set_config('case_file.clock', $1, true)`, [at.toISOString()]);
}
