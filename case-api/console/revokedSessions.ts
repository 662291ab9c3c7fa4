/**
 * Sessions signed out before they expired. Session cookies are stateless (signed), so signing out
 * must remember the session id until the cookie would have expired anyway; entries are dropped
 * then. Held by the API process: with several API processes behind a load balancer, a signed-out
 * cookie still works on the others until it expires (docs/deployment.md, Security).
 */
import type { Session } from './session';

export class RevokedSessions {
  private readonly until = new Map<string, number>();

  add(session: Session): void {
    this.prune();
    this.until.set(session.sid, session.exp);
  }

  has(session: Session): boolean {
    return this.until.has(session.sid);
  }

  private prune(now = Date.now()): void {
    for (const [sid, exp] of this.until) if (exp <= now) this.until.delete(sid);
  }
}
