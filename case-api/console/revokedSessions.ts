/**
 * Sessions signed out before they expired. Session cookies are stateless (signed), so signing out
 * must remember the session id until the cookie would have expired anyway. With a case file the
 * ids are kept there (case-file/consoleSessionRecords.ts): a signed-out cookie stays refused by
 * every API process and after a restart. Without one (an API process with no DATABASE_URL) they
 * are held by this process only, and forgotten when it stops (docs/deployment.md, Security).
 */
import type { Pool } from 'pg';
import { isSessionRevoked, recordRevokedSession } from '../../case-file/consoleSessionRecords';
import type { Session } from './session';

export class RevokedSessions {
  private readonly until = new Map<string, number>();

  constructor(private readonly pool?: Pool) {}

  async add(session: Session): Promise<void> {
    if (this.pool) return recordRevokedSession(this.pool, session.sid, session.exp);
    this.prune();
    this.until.set(session.sid, session.exp);
  }

  has(session: Session): Promise<boolean> {
    if (this.pool) return isSessionRevoked(this.pool, session.sid);
    return Promise.resolve(this.until.has(session.sid));
  }

  private prune(now = Date.now()): void {
    for (const [sid, exp] of this.until) if (exp <= now) this.until.delete(sid);
  }
}
