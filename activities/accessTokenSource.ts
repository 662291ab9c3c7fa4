/**
 * OAuth 2.0 client credentials (spec §4.1, §5): one token per process, cached until shortly before
 * it expires, fetched single-flight so concurrent callers share one token request. Client secrets
 * are tried in order (primary, then secondary) so a rotation (§5.5) needs no outage; the one that
 * worked is tried first next time. Secrets and tokens are never logged or put into errors.
 *
 * Written by hand: the grant is one form POST, and none of the well-kept OAuth clients we looked
 * at does single-flight caching plus two-secret fallback with Temporal's error classification.
 */
import { ApplicationFailure } from '@temporalio/common';
import { tokenResponseSchema, tokenScope } from '../provider';
import { classifyHttpFailure, classifyNetworkFailure, isRedirect, parseBody } from './providerFailures';

export interface AccessTokenSourceOptions {
  authUrl: string;
  baseUrl: string;
  clientId: string;
  /** Primary first, then the optional secondary. */
  clientSecrets: string[];
  requestTimeoutMs: number;
  fetch?: typeof fetch;
  now?: () => number;
  /** Where an operator alert goes (no secret in it); stderr as one JSON line by default. */
  alert?: (message: string) => void;
}

const defaultAlert = (message: string) =>
  console.error(JSON.stringify({ level: 'error', alert: 'provider_token_refused', msg: message }));

interface CachedToken {
  value: string;
  refreshAt: number;
}

/** Refresh this long before expiry; a tenth of the lifetime for short-lived (test) tokens. */
const REFRESH_MARGIN_MS = 60_000;

export class AccessTokenSource {
  private cached?: CachedToken;
  private inflight?: Promise<string>;
  private preferredSecret = 0;
  /** How many token requests this process sent (observability, tests). */
  tokenRequests = 0;

  constructor(private readonly options: AccessTokenSourceOptions) {
    if (options.clientSecrets.length === 0) throw new Error('AccessTokenSource needs at least one client secret');
  }

  async token(): Promise<string> {
    const now = (this.options.now ?? Date.now)();
    if (this.cached && now < this.cached.refreshAt) return this.cached.value;
    this.inflight ??= this.fetchToken().finally(() => (this.inflight = undefined));
    return this.inflight;
  }

  /** Drops `token` after the API refused it, unless a newer one has replaced it already. */
  invalidate(token: string): void {
    if (this.cached?.value === token) this.cached = undefined;
  }

  private async fetchToken(): Promise<string> {
    const order = this.secretOrder();
    let lastRefusal: ApplicationFailure | undefined;
    for (const index of order) {
      const result = await this.requestToken(this.options.clientSecrets[index] as string);
      if (result instanceof ApplicationFailure) {
        // A refused credential may be the revoked half of a rotation: try the other secret.
        if (result.type === 'ProviderAuthenticationFailed') {
          lastRefusal = result;
          continue;
        }
        throw result;
      }
      this.preferredSecret = index;
      return result;
    }
    (this.options.alert ?? defaultAlert)(
      `ALERT provider_token_refused: ${(lastRefusal as ApplicationFailure).message}; check ` +
        `PROVIDER_CLIENT_SECRET and PROVIDER_CLIENT_SECRET_SECONDARY`,
    );
    throw lastRefusal as ApplicationFailure;
  }

  private secretOrder(): number[] {
    const all = this.options.clientSecrets.map((_, i) => i);
    return [this.preferredSecret, ...all.filter((i) => i !== this.preferredSecret)];
  }

  private async requestToken(clientSecret: string): Promise<string | ApplicationFailure> {
    const { authUrl, baseUrl, clientId, requestTimeoutMs } = this.options;
    const doFetch = this.options.fetch ?? fetch;
    const url = `${authUrl}/token`;
    const form = new URLSearchParams({
      grant_type: 'client_credentials',
      scope: tokenScope(baseUrl),
      client_id: clientId,
      client_secret: clientSecret,
    });
    this.tokenRequests++;
    let response: Response;
    try {
      response = await doFetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
        body: form.toString(),
        // Never followed: a 307 would send the client secret again, in the body, to the new host.
        redirect: 'manual',
        signal: AbortSignal.timeout(requestTimeoutMs),
      });
    } catch (error) {
      throw classifyNetworkFailure(error, 'POST', url);
    }
    const text = await response.text();
    if (isRedirect(response.status)) throw classifyHttpFailure(response, text, 'POST', url);
    if (response.status === 400 || response.status === 401) {
      return ApplicationFailure.create({
        type: 'ProviderAuthenticationFailed',
        message: `The token endpoint refused the client credentials of client ${clientId} (HTTP ${response.status})`,
        // A rotation mistake must not fail every journey at once: retried (within each activity's
        // retry budget) while someone fixes the credentials, and raised as an alert.
        nonRetryable: false,
        details: [{ status: response.status, body: parseBody(text) }],
      });
    }
    if (!response.ok) throw classifyHttpFailure(response, text, 'POST', url);
    const parsed = tokenResponseSchema.safeParse(parseBody(text));
    if (!parsed.success) {
      throw ApplicationFailure.create({
        type: 'ProviderResponseInvalid',
        message: 'The token endpoint answered without a usable access_token/expires_in',
        nonRetryable: true,
      });
    }
    const lifetimeMs = parsed.data.expires_in * 1000;
    const margin = Math.min(REFRESH_MARGIN_MS, lifetimeMs / 10);
    const now = (this.options.now ?? Date.now)();
    this.cached = { value: parsed.data.access_token, refreshAt: now + lifetimeMs - margin };
    return parsed.data.access_token;
  }
}
