/**
 * The request log (`GET /_control/requests`): every API call with its time and status. A call
 * whose answer was lost (responseLost.ts) keeps the status it would have had and is marked
 * `response_lost: true`; its response never finishes, so it is logged once, by the cut.
 */
import type { NextFunction, Request, Response } from 'express';
import type { RequestLogEntry, SimulatorStore } from './store';

export function logRequest(
  store: SimulatorStore,
  req: Request,
  res: Response,
  marker: Pick<RequestLogEntry, 'response_lost'> = {},
): void {
  const at = typeof res.locals.requestAt === 'number' ? res.locals.requestAt : Date.now();
  store.requests.push({ method: req.method, path: req.path, at, status: res.statusCode, ...marker });
}

/** Logs each API call once its answer is sent. Mounted before authentication, so refusals are logged too. */
export function requestLog(store: SimulatorStore) {
  return (req: Request, res: Response, next: NextFunction): void => {
    res.locals.requestAt = Date.now();
    res.on('finish', () => logRequest(store, req, res));
    next();
  };
}
