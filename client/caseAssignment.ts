/**
 * Assigning a case to an operator and releasing it, through the one client like every
 * operator action. Ownership lives in the case file's read model, not in the journey: assigning is
 * no Temporal call, so it works on a closed case too, and the journey's history never holds it.
 */
import type { Assignment } from '../case-file/caseAssignment';
import type { JourneyClientContext } from './journeyOperations';
import type { OperatorIdentity } from './operatorIdentity';

/** Assignment needs the case file: without it there is nowhere to keep who owns a case. */
export class CaseFileRequiredError extends Error {
  override name = 'CaseFileRequiredError';

  constructor(what: string) {
    super(`${what} needs the case file: set DATABASE_URL, or start the stack`);
  }
}

/** The read model holds no such case (never started, or its journey has not written its state yet). */
export class CaseNotFoundError extends Error {
  override name = 'CaseNotFoundError';

  constructor(readonly caseId: string) {
    super(`no case ${caseId} in the case file`);
  }
}

/**
 * Gives the case to `assignee`, or to nobody with null; audited under the operator's identity
 * (assigning sends no Update).
 */
export async function assignCase(
  ctx: JourneyClientContext,
  caseId: string,
  assignee: string | null,
  identity: OperatorIdentity,
  reason?: string,
): Promise<Assignment> {
  if (!ctx.readModel) throw new CaseFileRequiredError('assigning a case');
  const done = await ctx.readModel.assignCase({
    caseId,
    assignee,
    actor: identity.actor,
    requestId: identity.requestId,
    reason: reason ?? null,
  });
  if (!done) throw new CaseNotFoundError(caseId);
  return done.assignment;
}
