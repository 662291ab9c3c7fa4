/**
 * One route of the case API as data: what it accepts (zod), who may call it, what it answers. The
 * same table mounts the express routes and generates the OpenAPI document, so they cannot drift.
 */
import type { z } from 'zod';
import type { OperatorIdentity } from '../client/operatorIdentity';
import type { OperatorAction } from '../client/operatorRequestId';
import type { ApiRole } from './apiKeys';
import type { CaseGateway } from './caseGateway';

export interface RouteInput {
  params: Record<string, string>;
  query: unknown;
  body: unknown;
  /** The headers the route declares, parsed (absent when it declares none). */
  headers: Record<string, unknown>;
  /**
   * Who calls (the API key's configured name) and the request's id (requestId.ts); for a route
   * that is `idempotent`, sent with an Idempotency-Key, also the Update id the key makes, which is
   * then the request's id too (mountRoutes.ts). An operator action goes under it.
   */
  identity: OperatorIdentity;
  /**
   * The name of a key scoped to the cases it started (apiKeys.ts), whose requests see only those:
   * a case route has refused another's case already (mountRoutes.ts); a list or a start takes it.
   * Undefined: every case.
   */
  owner?: string;
  /** Which of these media types the request's Accept prefers (express's `req.accepts`); false: none. */
  accepts?: (types: string[]) => string | false;
}

export interface RouteAnswer {
  status: number;
  body: unknown;
  /** Sent as this media type, the body as text; absent: the body as JSON. */
  mediaType?: string;
}

export interface RouteSpec {
  method: 'get' | 'post';
  /** Express path (`:name` parameters). */
  path: string;
  operationId: string;
  summary: string;
  description?: string;
  /** The least role that may call it; `operator` may call everything. */
  role: ApiRole;
  /** Waiving: when `CASE_API_WAIVE_ROLE` is set, only keys with that role may call it (403 for others). */
  waives?: true;
  params?: z.ZodObject;
  query?: z.ZodObject;
  /** Request headers the route reads, by their canonical name (matched case-insensitively). */
  headers?: z.ZodObject;
  /** An operator action on one case: its audit entry carries the request's id (the `Request-Id` it answers). */
  audited?: true;
  /** The action whose Update ids an `Idempotency-Key` header names: the request's id becomes that Update id. */
  idempotent?: OperatorAction;
  body?: z.ZodType;
  /**
   * A well-formed body whose only faults are issues this says (an item the route does not know) is
   * unprocessable: answered 422 with `code`, the issues named, rather than 400.
   */
  bodyProblem?: { code: string; is: (issue: z.core.$ZodIssue) => boolean };
  /** `csv`: the answer may also be text/csv (the route says when). */
  responses: Record<number, { description: string; schema?: z.ZodType; csv?: true }>;
  handle(input: RouteInput, gateway: CaseGateway): Promise<RouteAnswer>;
}

/** `/v1/cases/:caseId` → `/v1/cases/{caseId}` */
export const openApiPath = (path: string) => path.replace(/:([A-Za-z]+)/g, '{$1}');
