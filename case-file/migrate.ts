/**
 * Applies the migrations a database lacks, each recorded in `schema_migrations`. Idempotent, and
 * safe when several processes start at once: the whole run is one transaction under a
 * transaction-scoped advisory lock, so a second process waits, then finds everything applied.
 * (A session-level lock would not serialise two connections to the embedded PGlite, which share
 * one backend session; its open transaction does.)
 */
import type { Pool, PoolClient } from 'pg';
import { migrations as allMigrations, type Migration } from './migrations';
import { inTransaction } from './transaction';

/** An arbitrary constant naming this project's migration lock. */
const MIGRATION_LOCK = 7_401_550_010;

export async function migrate(pool: Pool, migrations: readonly Migration[] = allMigrations): Promise<number[]> {
  return inTransaction(pool, async (client) => {
    await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    await client.query(
      'CREATE TABLE IF NOT EXISTS schema_migrations (version integer PRIMARY KEY, name text ' +
        'NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())',
    );
    const applied = new Set(
      (await client.query<{ version: number }>('SELECT version FROM schema_migrations')).rows.map((r) => r.version),
    );
    const pending = migrations.filter((m) => !applied.has(m.version));
    for (const migration of pending) await apply(client, migration);
    return pending.map((m) => m.version);
  });
}

async function apply(client: PoolClient, migration: Migration): Promise<void> {
  await client.query(migration.sql);
  await client.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [
    migration.version,
    migration.name,
  ]);
}
