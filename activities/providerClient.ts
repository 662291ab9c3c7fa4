/**
 * The provider's HTTP API: bearer token on every call, a timeout on every call, one token refresh
 * and one retry after a 401, classified failures, responses validated with the `provider/` schemas,
 * and payload links followed only under the base URL.
 */
import { ApplicationFailure } from '@temporalio/common';
import type { z } from 'zod';
import { describeIssues } from '../provider';
import { AccessTokenSource } from './accessTokenSource';
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
  ) {
    this.tokens = new AccessTokenSource({ ...config, fetch: fetchImpl });
  }

  /** Calls a route of the routes table. */
  async call<Schema extends z.ZodType>(call: ProviderCall<Schema>): Promise<z.output<Schema>> {
    const url = resolveProviderLink(this.config.baseUrl, routePath(call.route, call.params));
    for (const [name, value] of Object.entries(call.query ?? {})) {
      if (value !== undefined) url.searchParams.set(name, value);
    }
    return this.send(call.route.method, url, call.body, call.schema);
  }

  /** GETs a link taken from a payload (refused unless under the base URL). */
  async follow<Schema extends z.ZodType>(call: LinkCall<Schema>): Promise<z.output<Schema>> {
    return this.send('GET', resolveProviderLink(this.config.baseUrl, call.link), undefined, call.schema);
  }

  private async send<Schema extends z.ZodType>(
    method: string,
    url: URL,
    body: unknown,
    schema: Schema,
  ): Promise<z.output<Schema>> {
    let response = await this.attempt(method, url, body);
    if (response.status === 401) {
      // The token may have been revoked or expired early: refresh once, retry once.
      this.tokens.invalidate(response.token);
      response = await this.attempt(method, url, body);
    }
    const text = await response.res.text();
    if (!response.res.ok) throw classifyHttpFailure(response.res, text, method, url.toString());
    return parseResponse(schema, text, method, url);
  }

  private async attempt(method: string, url: URL, body: unknown): Promise<{ res: Response; status: number; token: string }> {
    const token = await this.tokens.token();
    const headers: Record<string, string> = { authorization: `Bearer ${token}`, accept: 'application/json' };
    if (body !== undefined) headers['content-type'] = 'application/json';
    try {
      const res = await this.fetchImpl(url, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(this.config.requestTimeoutMs),
      });
      return { res, status: res.status, token };
    } catch (error) {
      throw classifyNetworkFailure(error, method, url.toString());
    }
  }
}

function parseResponse<Schema extends z.ZodType>(schema: Schema, text: string, method: string, url: URL): z.output<Schema> {
  let json: unknown = null;
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
