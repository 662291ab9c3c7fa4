/**
 * The throwaway PostgreSQL the fault suites and the case file benchmark start: a committed row
 * survives a SIGKILL and a start on the same data and port, and once removed the server is gone
 * with its directory.
 */
import { existsSync } from 'node:fs';
import { Client } from 'pg';
import { startThrowawayPostgres, type ThrowawayPostgres } from '../support/faultHarness/throwawayPostgres';

let postgres: ThrowawayPostgres | undefined;
afterAll(() => postgres?.remove());

async function query(url: string, sql: string, values: string[] = []): Promise<unknown[]> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql, values)).rows;
  } finally {
    await client.end();
  }
}

test('a committed row survives a SIGKILL and a restart on the same data; remove leaves nothing behind', async () => {
  postgres = await startThrowawayPostgres();
  expect(postgres.version).toMatch(/^postgres \(PostgreSQL\) \d+/);
  await query(postgres.url, 'CREATE TABLE kept (value text)');
  await query(postgres.url, 'INSERT INTO kept VALUES ($1)', ['committed']);

  await postgres.kill();
  await expect(query(postgres.url, 'SELECT 1')).rejects.toThrow(/ECONNREFUSED/);
  postgres.start();
  expect(await query(postgres.url, 'SELECT value FROM kept')).toEqual([{ value: 'committed' }]);

  postgres.remove();
  expect(existsSync(postgres.dir)).toBe(false);
  await expect(query(postgres.url, 'SELECT 1')).rejects.toThrow(/ECONNREFUSED/);
}, 120_000);
