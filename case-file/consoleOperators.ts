/**
 * The names the console shows for OIDC operators (migration 012). Audits and assignments record an
 * operator by issuer and subject (`<iss>#<sub>`), which never change and no one else has; the name
 * the identity provider gave them at their latest sign-in is kept here, for display only.
 */
import type { Pool } from 'pg';
import { inTransaction } from './transaction';

/** Keeps the name an operator signed in with, replacing the one they had. */
export function recordOperatorName(pool: Pool, identity: string, name: string): Promise<void> {
  return inTransaction(pool, async (client) => {
    await client.query(
      `INSERT INTO console_operators (identity, name) VALUES ($1, $2)
       ON CONFLICT (identity) DO UPDATE SET name = EXCLUDED.name, seen_at = now()`,
      [identity, name],
    );
  });
}

/** The names of these operators, by identity; an identity with no name kept (an API key's name) is left out. */
export function operatorNamesOf(pool: Pool, identities: readonly string[]): Promise<Map<string, string>> {
  const wanted = [...new Set(identities)];
  if (wanted.length === 0) return Promise.resolve(new Map());
  return inTransaction(pool, async (client) => {
    const { rows } = await client.query<{ identity: string; name: string }>(
      'SELECT identity, name FROM console_operators WHERE identity = ANY($1::text[])',
      [wanted],
    );
    return new Map(rows.map((r) => [r.identity, r.name]));
  });
}
