/**
 * Answers a method a path of the route table does not have with 405 and `Allow` (RFC 9110), before
 * authentication: which methods a path has is public (/openapi.json), and a 404 or a 401 would tell
 * a client its URL or its key is wrong when only its method is. OPTIONS is answered 204 with
 * `Allow`. Paths outside the table are left to the 404 that follows.
 */
import express, { type Response, type Router } from 'express';
import type { RouteSpec } from './routeSpec';

/** `prefix` is where the router is mounted: the table's paths carry it, the router's do not. */
export function methodNotAllowed(routes: readonly RouteSpec[], prefix: string): Router {
  const router = express.Router();
  // One URL can match several patterns (`/v1/cases/retry-step` is also `/v1/cases/:caseId`): each
  // that matches adds its methods, and the last step answers when none of them has the request's.
  for (const route of routes) {
    router.all(route.path.slice(prefix.length), (_req, res, next) => {
      allowedFor(res).add(route.method.toUpperCase());
      next();
    });
  }
  router.use((req, res, next) => {
    const allowed = res.locals.allowedMethods as Set<string> | undefined;
    if (!allowed) return next();
    if (allowed.has('GET')) allowed.add('HEAD');
    if (allowed.has(req.method)) return next();
    const allow = [...allowed].sort().join(', ');
    res.set('Allow', allow);
    if (req.method === 'OPTIONS') return void res.status(204).end();
    res.status(405).json({ error: 'method_not_allowed', message: `${req.method} is not a method of this path; it has ${allow}` });
  });
  return router;
}

function allowedFor(res: Response): Set<string> {
  return (res.locals.allowedMethods ??= new Set<string>()) as Set<string>;
}
