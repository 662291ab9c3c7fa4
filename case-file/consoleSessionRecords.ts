/**
 * Console sessions signed out before they expired (migration 012), kept in the case file so that a
 * signed-out cookie stays refused by every API process and after a restart. A row lives until the
 * session would have expired anyway; expired rows are deleted whenever a session is signed out.
 */
import type { Pool } from 'pg';
import { inTransaction } from './transaction';

/** Remembers a signed-out session until `expiresAt` (epoch ms), and forgets the expired ones. */
export function recordRevokedSession(pool: Pool, sessionId: string, expiresAt: number): Promise<void> {
  return inTransaction(pool, async (client) => {
    await client.query('DELETE FROM console_revoked_sessions WHERE expires_at <= now()');
    await client.query(
      `INSERT INTO console_revoked_sessions (session_id, expires_at) VALUES ($1, $2)
       ON CONFLICT (session_id) DO NOTHING`,
      [sessionId, new Date(expiresAt).toISOString()],
    );
  });
}

/** Whether the session was signed out (and has not expired since). */
export function isSessionRevoked(pool: Pool, sessionId: string): Promise<boolean> {
  return inTransaction(pool, async (client) => {
    const { rows } = await client.query(
      'SELECT 1 FROM console_revoked_sessions WHERE session_id = $1 AND expires_at > now()',
      [sessionId],
    );
    return rows.length > 0;
  });
}
