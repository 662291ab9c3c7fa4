/** Matching a request against a routes-table pattern (`/v2/persons/:personId/…`), for faults and idempotency. */
import { routes, type Route } from '../activities/routes';

const escape = (part: string) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export function matchesPattern(pattern: string, path: string): boolean {
  const regex = new RegExp(
    `^${pattern
      .split('/')
      .map((part) => (part.startsWith(':') ? '[^/]+' : escape(part)))
      .join('/')}$`,
  );
  return regex.test(path);
}

/** `"POST /v2/company-credit-reports"`: how fault settings name a route. */
export const routeName = (r: Pick<Route, 'method' | 'pattern'>) => `${r.method} ${r.pattern}`;

/** The API routes served under `{base_url}` (the token endpoint lives under `{auth_url}`). */
export const apiRoutes: readonly Route[] = Object.values(routes).filter((r) => r !== routes.token);

/** The routes-table entry a request hits, if any. */
export function routeOf(method: string, path: string): Route | undefined {
  return apiRoutes.find((r) => r.method === method && matchesPattern(r.pattern, path));
}
