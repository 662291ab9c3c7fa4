/**
 * A route that reads a body reads JSON only: a body sent as another media type (a form, text) is
 * refused with 415 before it is read, never parsed as JSON on a guess and acted on. An empty
 * request passes, to be refused as a missing body (mountRoutes.ts).
 */
import type { NextFunction, Request, Response } from 'express';

export function refuseOtherMediaTypes(req: Request, res: Response, next: NextFunction): void {
  const empty =
    req.headers['content-length'] === '0' || (!req.headers['content-length'] && !req.headers['transfer-encoding']);
  // `req.is` answers false for a body of another type, null for no body.
  if (empty || req.is('application/json') !== false) return next();
  res.status(415).json({
    error: 'unsupported_media_type',
    message: `The body must be JSON, sent as Content-Type: application/json (not ${req.get('content-type')?.slice(0, 100) ?? 'none'})`,
  });
}
