/** A tiny HTTP client for the case API in tests: real fetch, JSON both ways. */
import type { Json } from './faultHarness/rawProviderApi';

/** An answer: its body `T` when the call names it, else parsed JSON the test reads freely. */
export interface ApiAnswer<T = Json> {
  status: number;
  body: T;
  headers: Headers;
}

export function caseApiClient(baseUrl: string) {
  return async <T = Json>(
    method: string,
    path: string,
    options: { key?: string; body?: unknown; headers?: Record<string, string> } = {},
  ): Promise<ApiAnswer<T>> => {
    const response = await fetch(`${baseUrl}${path}`, {
      method,
      headers: {
        ...(options.key ? { authorization: `Bearer ${options.key}` } : {}),
        ...(options.body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...options.headers,
      },
      body: options.body !== undefined ? JSON.stringify(options.body) : undefined,
    });
    const text = await response.text();
    return { status: response.status, body: (text ? JSON.parse(text) : null) as T, headers: response.headers };
  };
}

/** Polls `read` until `predicate` holds on its answer; fails with the last answer when time runs out. */
export async function eventually<T>(
  read: () => Promise<T>,
  predicate: (value: T) => boolean,
  timeoutMs = 30_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: T = await read();
  while (!predicate(last)) {
    if (Date.now() > deadline)
      throw new Error(`condition not met in ${timeoutMs} ms; last: ${JSON.stringify(last).slice(0, 2000)}`);
    await new Promise((r) => setTimeout(r, 100));
    last = await read();
  }
  return last;
}
