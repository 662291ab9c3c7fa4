/**
 * Answers a method a path of the route table does not have with 405 and `Allow` (RFC 9110), before
 * authentication: which methods a path has is public (/openapi.json), and a 404 or a 401 would tell
 * a client its URL or its key is wrong when only its method is. OPTIONS is answered 204 with
 * `Allow`. Paths outside the table are left to the 404 that follows.
 */
import express, { type Response, type Router } from 'express';
import type { RouteSpec } from './routeSpec';

/** The methods of each path pattern a request matched, by how many parameters the pattern has. */
type Matches = Map<number, Set<string>>;

/** `prefix` is where the router is mounted: the table's paths carry it, the router's do not. */
export function methodNotAllowed(routes: readonly RouteSpec[], prefix: string): Router {
  const router = express.Router();
  for (const route of routes) {
    const parameters = (route.path.match(/:/g) ?? []).length;
    router.all(route.path.slice(prefix.length), (_req, res, next) => {
      const matches = matchesOf(res);
      matches.set(parameters, (matches.get(parameters) ?? new Set<string>()).add(route.method.toUpperCase()));
      next();
    });
  }
  router.use((req, res, next) => {
    const allowed = mostConcrete(res.locals.pathMatches as Matches | undefined);
    if (!allowed || allowed.has(req.method)) return next();
    const allow = [...allowed].sort().join(', ');
    res.set('Allow', allow);
    if (req.method === 'OPTIONS') return void res.status(204).end();
    res
      .status(405)
      .json({ error: 'method_not_allowed', message: `${req.method} is not a method of this path; it has ${allow}` });
  });
  return router;
}

function matchesOf(res: Response): Matches {
  return (res.locals.pathMatches ??= new Map()) as Matches;
}

/**
 * One URL can match several patterns (`/v1/cases/retry-step` is also `/v1/cases/{caseId}`): as in
 * OpenAPI, the concrete path wins over the templated one, so the path is the pattern with the
 * fewest parameters. A path with GET also answers HEAD (express serves it from the GET route).
 */
function mostConcrete(matches: Matches | undefined): Set<string> | undefined {
  if (!matches?.size) return undefined;
  const methods = new Set(matches.get(Math.min(...matches.keys())));
  if (methods.has('GET')) methods.add('HEAD');
  return methods;
}
