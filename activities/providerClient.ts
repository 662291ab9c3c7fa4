/**
 * The provider's HTTP API: bearer token on every call, a timeout on every call, one token refresh
 * and one retry after a 401, classified failures, responses validated with the `provider/` schemas,
 * payload links followed only under the base URL, and redirects never followed.
 */
import { ApplicationFailure, CancelledFailure } from '@temporalio/common';
import type { z } from 'zod';
import { describeIssues } from '../provider';
import { AccessTokenSource } from './accessTokenSource';
import { whileHeartbeating } from './activityCall';
import { resolveProviderLink } from './linkGuard';
import type { ProviderConfig } from './providerConfig';
import { classifyHttpFailure, classifyNetworkFailure } from './providerFailures';
import { path as routePath, type Route } from './routes';

export interface ProviderCall<Schema extends z.ZodType> {
  route: Route;
  params?: Record<string, string>;
  query?: Record<string, string | undefined>;
  body?: unknown;
  schema: Schema;
  /** Sent as `Idempotency-Key` on a creating call: a repeat answers the first result (assumption A37). */
  idempotencyKey?: string;
}

export interface LinkCall<Schema extends z.ZodType> {
  /** A link from a payload: absolute or relative to the base URL. */
  link: string;
  schema: Schema;
}

export class ProviderClient {
  readonly tokens: AccessTokenSource;

  constructor(
    readonly config: ProviderConfig,
    private readonly fetchImpl: typeof fetch = fetch,
    /** The clock token expiry is judged by (tests move it on instead of waiting); Date.now by default. */
    now?: () => number,
  ) {
    this.tokens = new AccessTokenSource({ ...config, fetch: fetchImpl, now });
  }

  /** Calls a route of the routes table. */
  async call<Schema extends z.ZodType>(call: ProviderCall<Schema>): Promise<z.output<Schema>> {
    const url = resolveProviderLink(this.config.baseUrl, routePath(call.route, call.params));
    for (const [name, value] of Object.entries(call.query ?? {})) {
      if (value !== undefined) url.searchParams.set(name, value);
    }
    return this.send(
      { method: call.route.method, url, body: call.body, idempotencyKey: call.idempotencyKey },
      call.schema,
    );
  }

  /** GETs a link taken from a payload (refused unless under the base URL). */
  async follow<Schema extends z.ZodType>(call: LinkCall<Schema>): Promise<z.output<Schema>> {
    return this.send({ method: 'GET', url: resolveProviderLink(this.config.baseUrl, call.link) }, call.schema);
  }

  /**
   * A read is aborted when its activity is cancelled. A creating call (one with an idempotency key)
   * is not: the provider may already be making the thing, so the request runs to its answer, which
   * the activity returns even when cancelled meanwhile (the step records what was bought); only a
   * creating call that failed ends as cancelled, so Temporal does not try it again.
   */
  private send<Schema extends z.ZodType>(request: OutgoingRequest, schema: Schema): Promise<z.output<Schema>> {
    return whileHeartbeating(async (cancelled) => {
      const creating = request.idempotencyKey !== undefined;
      const req = { ...request, cancelled: creating ? undefined : cancelled };
      try {
        let response = await this.attempt(req);
        if (response.status === 401) {
          // The token may have been revoked or expired early: refresh once, retry once.
          this.tokens.invalidate(response.token);
          response = await this.attempt(req);
        }
        const text = await response.res.text();
        if (!response.res.ok) throw classifyHttpFailure(response.res, text, req.method, req.url.toString());
        return parseResponse(schema, text, req.method, req.url);
      } catch (error) {
        if (creating && cancelled?.aborted)
          throw new CancelledFailure(
            `${req.method} ${req.url.pathname} answered after the activity was cancelled: ${(error as Error).message}`,
          );
        throw error;
      }
    });
  }

  private async attempt(
    req: OutgoingRequest & { cancelled?: AbortSignal },
  ): Promise<{ res: Response; status: number; token: string }> {
    const token = await this.tokens.token();
    const headers: Record<string, string> = { authorization: `Bearer ${token}`, accept: 'application/json' };
    if (req.body !== undefined) headers['content-type'] = 'application/json';
    if (req.idempotencyKey) headers['idempotency-key'] = req.idempotencyKey;
    const timeout = AbortSignal.timeout(this.config.requestTimeoutMs);
    try {
      const res = await this.fetchImpl(req.url, {
        method: req.method,
        headers,
        body: req.body === undefined ? undefined : JSON.stringify(req.body),
        // Never followed: a 3xx to another origin would take the token past linkGuard (a failure, below).
        redirect: 'manual',
        signal: req.cancelled ? AbortSignal.any([timeout, req.cancelled]) : timeout,
      });
      return { res, status: res.status, token };
    } catch (error) {
      if (req.cancelled?.aborted)
        throw new CancelledFailure(`${req.method} ${req.url.pathname} aborted: the activity was cancelled`);
      throw classifyNetworkFailure(error, req.method, req.url.toString());
    }
  }
}

interface OutgoingRequest {
  method: string;
  url: URL;
  body?: unknown;
  idempotencyKey?: string;
}

function parseResponse<Schema extends z.ZodType>(
  schema: Schema,
  text: string,
  method: string,
  url: URL,
): z.output<Schema> {
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    throw invalidResponse(method, url, ['body is not JSON']);
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) throw invalidResponse(method, url, describeIssues(parsed.error));
  return parsed.data;
}

function invalidResponse(method: string, url: URL, problems: string[]): ApplicationFailure {
  return ApplicationFailure.create({
    type: 'ProviderResponseInvalid',
    message: `Provider response to ${method} ${url.pathname} does not match the contract: ${problems.join('; ')}`,
    nonRetryable: true,
    details: [{ problems }],
  });
}
