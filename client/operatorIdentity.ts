/**
 * Who performs an operator action and the ids it goes under: one shape, built here for every front
 * end (the case API's routes, the console, the CLI) and passed as it is to journeyOperations.ts,
 * which audits the action under it (operatorAudit.ts) and sends the Update with its id.
 */
import { newRequestId, operatorUpdateId, type OperatorAction } from './operatorRequestId';

export interface OperatorIdentity {
  /** Who acts: the API key's name, the console's operator, the CLI's `--actor` ($USER); audited, sent in the Update. */
  actor: string;
  /** The id the action is audited under, as the caller is told it (the API's `Request-Id`, the CLI's stderr). */
  requestId: string;
  /**
   * `<action>/<the caller's request id>` when the caller gave one: the Update's id, so a repeat
   * answers the first result and acts once.
   */
  updateId?: string;
}

/**
 * The identity of an action by `actor`. With the caller's request id (the API's
 * `Idempotency-Key`, the CLI's `--request-id`) for an action that takes one: the Update id
 * `<action>/<id>`, which is also the id the action is audited under (every repeat under the same
 * id). Else no Update id (Temporal makes one), and the request's own id (`requestId`, the API's
 * for the request) or a new one.
 */
export function operatorIdentity(
  actor: string,
  ids: { action?: OperatorAction | undefined; callerRequestId?: string | undefined; requestId?: string } = {},
): OperatorIdentity {
  if (ids.action !== undefined && ids.callerRequestId !== undefined) {
    const updateId = operatorUpdateId(ids.action, ids.callerRequestId);
    return { actor, requestId: updateId, updateId };
  }
  return { actor, requestId: ids.requestId ?? newRequestId() };
}

/**
 * Who the audit entry names and the id it carries, when a caller of journeyOperations.ts leaves
 * parts of the identity out (a test, a bulk retry's case, which has only its Update id): an
 * unnamed actor is "unknown", and the entry carries the Update id, or else a new id.
 */
export function auditedIdentity(given: Partial<OperatorIdentity>): { actor: string; requestId: string } {
  return { actor: given.actor ?? 'unknown', requestId: given.requestId ?? given.updateId ?? newRequestId() };
}
