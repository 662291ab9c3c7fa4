/**
 * When a resource workflow asks the provider again (docs/architecture.md: polling is the safety net, not the
 * clock). Webhooks get lost, so a waiting resource polls `reconcileAfter` after its last delivery or
 * subscription; a "not yet" means the applicant has not acted, so each further poll waits twice as
 * long as the one before, up to a cap. Waiting three days then costs eight polls instead of
 * seventy-two. Any delivery starts the count again (the resource workflow resets it).
 */

/** Past this many doublings every interval is the cap anyway; stops 2^n from growing without bound. */
const MAX_DOUBLINGS = 40;

/**
 * The wait before the next poll, after `pollsSinceActivity` polls that answered "not yet" since the
 * last delivery or subscription: `reconcileAfterMs`, then doubling, never above `capMs` (nor below
 * `reconcileAfterMs`, should a cap shorter than it be asked for).
 */
export function pollInterval(reconcileAfterMs: number, capMs: number, pollsSinceActivity: number): number {
  const doublings = Math.min(Math.max(0, pollsSinceActivity), MAX_DOUBLINGS);
  return Math.min(Math.max(capMs, reconcileAfterMs), reconcileAfterMs * 2 ** doublings);
}
