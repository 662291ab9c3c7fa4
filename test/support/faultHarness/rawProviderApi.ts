/** Raw HTTP against the simulator, independent of the project's API client: a token and fetch. */
import type { RunningSimulator } from '../../../simulator/startSimulator';

/**
 * A parsed JSON answer as tests and benchmarks read it: indexed freely, its shape checked by the
 * expectations that read it (each answer's exact type is the API under test, not this helper's).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- parsed JSON, indexed freely (above)
export type Json = any;

export interface RawResponse {
  status: number;
  headers: Headers;
  body: Json;
}

export async function fetchToken(
  sim: RunningSimulator,
  clientSecret: string,
  overrides: Record<string, string> = {},
): Promise<RawResponse> {
  const form = new URLSearchParams({
    grant_type: 'client_credentials',
    scope: `${sim.baseUrl}/.default`,
    client_id: sim.clientId,
    client_secret: clientSecret,
    ...overrides,
  });
  const response = await fetch(`${sim.authUrl}/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: form,
  });
  return { status: response.status, headers: response.headers, body: await response.json() };
}

export interface RawResponseText extends RawResponse {
  /** The body exactly as received. */
  text: string;
}

/** `headers` adds request headers, e.g. `{ 'idempotency-key': 'k-1' }`. */
export function rawApi(sim: RunningSimulator, clientSecret: string) {
  let token: string | undefined;
  return async function api(
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<RawResponseText> {
    token ??= (await fetchToken(sim, clientSecret)).body.access_token as string;
    const url = path.startsWith('http') ? path : `${sim.baseUrl}${path}`;
    const response = await fetch(url, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...headers,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : null, text };
  };
}

/**
 * What a call ended with when the connection was cut before any answer: fetch's error and the
 * socket error under it (undici: `fetch failed`, caused by `UND_ERR_SOCKET` "other side closed").
 */
export async function networkFailureOf(
  call: Promise<unknown>,
): Promise<{ message: string; cause: { code?: string; message?: string } }> {
  try {
    await call;
  } catch (error) {
    const e = error as Error & { cause?: { code?: string; message?: string } };
    return { message: e.message, cause: e.cause ?? {} };
  }
  throw new Error('expected the call to fail at the network level, but it was answered');
}

export async function control(
  sim: Pick<RunningSimulator, 'controlUrl'>,
  method: string,
  path: string,
  body?: unknown,
): Promise<RawResponse> {
  const response = await fetch(`${sim.controlUrl}${path}`, {
    method,
    headers: { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : null };
}

/**
 * The control API for tests that expect success: the answer's body, or an error naming the call
 * and its status. GET without a body, POST with one, unless `method` says otherwise.
 */
export function simulatorControl(sim: Pick<RunningSimulator, 'controlUrl'>) {
  return async (path: string, body?: unknown, method = body === undefined ? 'GET' : 'POST'): Promise<Json> => {
    const response = await control(sim, method, path, body);
    if (response.status >= 300)
      throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(response.body)}`);
    return response.body;
  };
}
