/**
 * Mounts the route table on an express router: role check, then zod validation of path, query,
 * declared headers and body (400 naming each problem: unknown query parameters and a missing body
 * too), then the handler; errors become JSON answers.
 */
import express, { type Request, type Response, type Router } from 'express';
import type { Logger } from 'pino';
import { z } from 'zod';
import { describeIssues } from '../provider';
import { mayWaive } from './apiKeys';
import { callerOf, mayCall, ownerOf } from './authenticate';
import type { CaseGateway } from './caseGateway';
import { HttpError } from './httpError';
import { refuseOtherMediaTypes } from './mediaType';
import { refuseNul } from './nulCharacters';
import { answerRequestId, requestIdOf } from './requestId';
import { stepChoiceProblem } from '../client/journeyInput';
import { isIdIssue } from '../client/idSchemas';
import { operatorIdentity, type OperatorIdentity } from '../client/operatorIdentity';
import type { RouteSpec } from './routeSpec';

/**
 * `prefix` is where the router is mounted: the table's paths carry it, the router's do not. Only a
 * route that declares a body reads one (at most `maxBodyBytes`), so only those can answer 413 or 415.
 */
export function mountRoutes(
  router: Router,
  routes: readonly RouteSpec[],
  gateway: CaseGateway,
  logger: Logger,
  prefix: string,
  maxBodyBytes: number,
  options: { waiveRole?: string } = {},
): void {
  const readBody = jsonBody(maxBodyBytes);
  for (const route of routes) {
    const bodyReader = route.body ? [refuseOtherMediaTypes, readBody] : [];
    router[route.method](route.path.slice(prefix.length), ...bodyReader, async (req: Request, res: Response) => {
      const caller = callerOf(res)!;
      if (!mayCall(caller, route.role)) {
        res.status(403).json({
          error: 'forbidden',
          message: `${route.operationId} needs the ${route.role} role; this key has ${caller.role}`,
        });
        return;
      }
      if (route.waives && !mayWaive(options.waiveRole, caller.roles)) {
        logger.info({ operation: route.operationId, caller: caller.name, status: 403 }, 'case api request');
        res.status(403).json({
          error: 'forbidden',
          message:
            `${route.operationId} needs the ${options.waiveRole} role; this key has ` +
            `${caller.roles.length ? caller.roles.join(', ') : 'no further role'}`,
        });
        return;
      }
      try {
        const parsed = {
          params: parse(route.params, req.params, 'path') as Record<string, string>,
          query: parse(route.query, knownQuery(route.query, req.query as Record<string, unknown>), 'query'),
          headers: parse(route.headers, declaredHeaders(route.headers, req), 'header') as Record<string, unknown>,
          body: parse(route.body, requiredBody(route.body, req), 'body', route.bodyProblem),
        };
        const identity = identityOf(route, parsed.headers, caller.name, requestIdOf(res));
        // A repeat of an idempotent request is audited, and answered, under the Update id its key makes.
        if (identity.updateId) answerRequestId(res, identity.requestId);
        const owner = ownerOf(caller);
        // A key scoped to its own cases finds another's case as it finds no case: 404.
        if (parsed.params.caseId !== undefined) await gateway.refuseUnlessStartedBy(parsed.params.caseId, owner);
        const input = { ...parsed, identity, owner, accepts: (types: string[]) => req.accepts(types) };
        // What the route takes, after its schema dropped what it ignores (an unknown field's value).
        refuseNul({ path: input.params, query: input.query, body: input.body });
        const answer = await route.handle(input, gateway);
        logger.info(
          { operation: route.operationId, caller: caller.name, status: answer.status, requestId: requestIdOf(res) },
          'case api request',
        );
        if (answer.mediaType) res.status(answer.status).type(answer.mediaType).send(answer.body);
        else res.status(answer.status).json(answer.body);
      } catch (error) {
        const http =
          error instanceof HttpError
            ? error
            : new HttpError(
                500,
                'internal',
                'The request failed unexpectedly',
                error instanceof Error ? error.name : typeof error,
              );
        // Only the operation, the caller's key name and the outcome: never bodies, ids of people or keys.
        const cause = http.logDetail ? { cause: http.logDetail } : {};
        logger[http.status >= 500 ? 'error' : 'info'](
          {
            operation: route.operationId,
            caller: caller.name,
            status: http.status,
            code: http.code,
            requestId: requestIdOf(res),
            ...cause,
          },
          'case api request',
        );
        res.status(http.status).json({ error: http.code, message: http.message });
      }
    });
  }
}

/**
 * The caller and the request's id; with an Idempotency-Key on an idempotent route, the Update id
 * the key makes for the route's action (namespaced by it, so one key cannot answer two actions).
 */
function identityOf(
  route: RouteSpec,
  headers: Record<string, unknown>,
  actor: string,
  requestId: string,
): OperatorIdentity {
  const key = headers['Idempotency-Key'];
  return operatorIdentity(actor, {
    action: route.idempotent,
    callerRequestId: route.idempotent && typeof key === 'string' ? key : undefined,
    requestId,
  });
}

function parse(
  schema: z.ZodType | undefined,
  value: unknown,
  where: string,
  problem?: RouteSpec['bodyProblem'],
): unknown {
  if (!schema) return value;
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  // A well-formed body whose only faults are the route's own unprocessable problem (an unknown item).
  if (problem && result.error.issues.every(problem.is))
    throw new HttpError(422, problem.code, `Invalid ${where}: ${describeIssues(result.error).join('; ')}`);
  // A well-formed body whose only faults are ids this API cannot use (too long, other characters):
  // unprocessable, not malformed, each named with its limit and fix (client/idSchemas.ts).
  if (where === 'body' && result.error.issues.every(isIdIssue))
    throw new HttpError(422, 'invalid_id', `Invalid ${where}: ${describeIssues(result.error).join('; ')}`);
  // A well-formed start whose only fault is the steps it asks for: unprocessable, not malformed.
  // An unknown step is the whole story: that no known step is left is its consequence.
  const choices = result.error.issues.map(stepChoiceProblem);
  if (where === 'body' && choices.length && choices.every((c) => c !== undefined)) {
    const choice = choices.includes('unknown_step') ? 'unknown_step' : 'no_step';
    const issues = result.error.issues.filter((_, i) => choices[i] === choice);
    throw new HttpError(422, choice, `Invalid ${where}: ${describeIssues(new z.ZodError(issues)).join('; ')}`);
  }
  throw new HttpError(400, 'invalid_request', `Invalid ${where}: ${describeIssues(result.error).join('; ')}`);
}

/**
 * The query as it came, once every parameter in it is one the route declares: an unknown one (a
 * typo, a parameter of another operation) is refused by name rather than ignored, so a client
 * never believes a filter it sent was applied.
 */
function knownQuery(schema: z.ZodObject | undefined, query: Record<string, unknown>): Record<string, unknown> {
  const declared = Object.keys(schema?.shape ?? {});
  const unknown = Object.keys(query).filter((name) => !declared.includes(name));
  if (unknown.length === 0) return query;
  const names = unknown
    .slice(0, 5)
    .map((name) => JSON.stringify(name.slice(0, 100)))
    .join(', ');
  const takes = declared.length ? `it takes ${declared.join(', ')}` : 'it takes none';
  throw new HttpError(
    400,
    'invalid_request',
    `Unknown query parameter${unknown.length > 1 ? 's' : ''} ${names}${unknown.length > 5 ? ', …' : ''}: ${takes}`,
  );
}

/** How many body bytes each request carried (express.json's verify hook), to tell `{}` from no body at all. */
const bodyBytes = new WeakMap<Request, number>();

/** A route that declares a body needs one: an empty request is refused, not read as `{}`. */
function requiredBody(schema: z.ZodType | undefined, req: Request): unknown {
  if (!schema) return undefined;
  if (!bodyBytes.get(req))
    throw new HttpError(400, 'invalid_request', 'A JSON body is required (send {} when every field is optional)');
  return req.body;
}

/** The declared headers' values by their declared names (express matches names case-insensitively). */
function declaredHeaders(schema: z.ZodObject | undefined, req: Request): Record<string, string | undefined> {
  return Object.fromEntries(Object.keys(schema?.shape ?? {}).map((name) => [name, req.get(name)]));
}

const jsonBody = (limit: number) =>
  express.json({
    limit,
    type: () => true,
    verify: (req, _res, bytes) => void bodyBytes.set(req as Request, bytes.length),
  });
