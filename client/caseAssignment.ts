/**
 * Assigning a case to an operator and releasing it (issue 22), through the one client like every
 * operator action. Ownership lives in the case file's read model, not in the journey: assigning is
 * no Temporal call, so it works on a closed case too, and the journey's history never holds it.
 */
import type { Assignment } from '../case-file/caseAssignment';
import type { JourneyClientContext } from './journeyOperations';
import { newRequestId } from './operatorRequestId';

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

export interface AssignOptions {
  /** Who assigns: recorded in the audit trail. */
  actor: string;
  reason?: string | undefined;
  /** The id the audit entry carries (the API's `Request-Id`); unset, a new one. */
  requestId?: string | undefined;
}

/** Gives the case to `assignee`, or to nobody with null; audited with the actor. */
export async function assignCase(ctx: JourneyClientContext, caseId: string, assignee: string | null, options: AssignOptions): Promise<Assignment> {
  if (!ctx.readModel) throw new CaseFileRequiredError('assigning a case');
  const done = await ctx.readModel.assignCase({ caseId, assignee, actor: options.actor, reason: options.reason ?? null, requestId: options.requestId ?? newRequestId() });
  if (!done) throw new CaseNotFoundError(caseId);
  return done.assignment;
}
