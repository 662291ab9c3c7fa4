/**
 * Mounts the route table on an express router: role check, then zod validation of path, query,
 * declared headers and body (400 naming each problem), then the handler; errors become JSON answers.
 */
import express, { type Request, type Response, type Router } from 'express';
import type { Logger } from 'pino';
import type { z } from 'zod';
import { describeIssues } from '../provider';
import { callerOf, mayCall } from './authenticate';
import type { CaseGateway } from './caseGateway';
import { HttpError } from './httpError';
import type { RouteSpec } from './routeSpec';

/** `prefix` is where the router is mounted: the table's paths carry it, the router's do not. */
export function mountRoutes(router: Router, routes: readonly RouteSpec[], gateway: CaseGateway, logger: Logger, prefix: string): void {
  for (const route of routes) {
    router[route.method](route.path.slice(prefix.length), async (req: Request, res: Response) => {
      const caller = callerOf(res)!;
      if (!mayCall(caller, route.role)) {
        res.status(403).json({ error: 'forbidden', message: `${route.operationId} needs the ${route.role} role; this key has ${caller.role}` });
        return;
      }
      try {
        const input = {
          params: parse(route.params, req.params, 'path') as Record<string, string>,
          query: parse(route.query, req.query, 'query'),
          headers: parse(route.headers, declaredHeaders(route.headers, req), 'header') as Record<string, unknown>,
          body: parse(route.body, req.body ?? {}, 'body'),
        };
        const answer = await route.handle(input, gateway);
        logger.info({ operation: route.operationId, caller: caller.name, status: answer.status }, 'case api request');
        res.status(answer.status).json(answer.body);
      } catch (error) {
        const http = error instanceof HttpError ? error : new HttpError(500, 'internal', 'The request failed unexpectedly', error instanceof Error ? error.name : typeof error);
        // Only the operation, the caller's key name and the outcome: never bodies, ids of people or keys.
        const cause = http.logDetail ? { cause: http.logDetail } : {};
        logger[http.status >= 500 ? 'error' : 'info']({ operation: route.operationId, caller: caller.name, status: http.status, code: http.code, ...cause }, 'case api request');
        res.status(http.status).json({ error: http.code, message: http.message });
      }
    });
  }
}

function parse(schema: z.ZodType | undefined, value: unknown, where: string): unknown {
  if (!schema) return value;
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  throw new HttpError(400, 'invalid_request', `Invalid ${where}: ${describeIssues(result.error).join('; ')}`);
}

/** The declared headers' values by their declared names (express matches names case-insensitively). */
function declaredHeaders(schema: z.ZodObject | undefined, req: Request): Record<string, string | undefined> {
  return Object.fromEntries(Object.keys(schema?.shape ?? {}).map((name) => [name, req.get(name)]));
}

export const jsonBody = (limit: number) => express.json({ limit, type: () => true });
