/**
 * Every answer of the case API carries a `Request-Id` header: the id of the request, made here
 * before anything else runs (so a refusal by the rate limit or the key check has one too). An
 * operator action is audited under it (`requestId` of the timeline's entry). An action sent with an
 * Idempotency-Key is audited under the Update id the key makes (`waive-step/<key>`, the same for
 * every repeat), and answers that instead (mountRoutes.ts): the header always names the audit entry.
 */
import type { RequestHandler, Response } from 'express';
import { newRequestId } from '../client/operatorRequestId';

export const requestIdHeader = 'Request-Id';

export function assignRequestIds(): RequestHandler {
  return (_req, res, next) => {
    answerRequestId(res, newRequestId());
    next();
  };
}

/** This request's id, as the header answers it. */
export const requestIdOf = (res: Response): string => res.locals.requestId as string;

export function answerRequestId(res: Response, id: string): void {
  res.locals.requestId = id;
  res.setHeader(requestIdHeader, id);
}
