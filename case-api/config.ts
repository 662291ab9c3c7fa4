/**
 * The case API's configuration, read once and validated. Without
 * `CASE_API_KEYS` the embedded default generates keys into `.data/case-api-keys.json`.
 */
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { readOrCreateSecretFile } from '../codec/secretFile';
import { ConfigurationError, httpUrlVariable, parseEnvironment, portVariable } from '../config/environment';
import { dataPath } from '../config/projectRoot';
import { apiKeyListSchema, roleNameSchema, scopeKeys, scopedKeyNamesSchema, type ApiKeyEntry } from './apiKeys';
import { oidcConfigOf, oidcEnvironment, type OidcConfig } from './console/oidcConfig';
import { defaultApiKeyFile, embeddedKeyEntries, readOrCreateEmbeddedKeys } from './embeddedApiKeys';

/**
 * `CASE_API_TRUST_PROXY`: a number of proxy hops, or comma-separated proxy addresses, subnets
 * (CIDR) or the names loopback, linklocal, uniquelocal (express's `trust proxy`). `true` (trust
 * any sender's X-Forwarded-For) is refused: any client could then pick its own rate-limit bucket.
 */
/** One trusted proxy: an address, a subnet (CIDR) or a name express knows; the list is comma-separated. */
const trustedProxy = String.raw`(loopback|linklocal|uniquelocal|[0-9a-fA-F.:]+(\/\d{1,3})?)`;
const trustedProxies = new RegExp(String.raw`^${trustedProxy}(\s*,\s*${trustedProxy})*$`);
const trustProxyVariable = z.union([
  z
    .string()
    .regex(/^\d{1,2}$/)
    .transform(Number),
  z
    .string()
    .regex(
      trustedProxies,
      'must be a number of hops, or proxy addresses, subnets or loopback/linklocal/uniquelocal, comma-separated',
    ),
]);

/** How long a console page's wait for a change is held open when CONSOLE_LONG_POLL_SECONDS is unset. */
export const DEFAULT_CONSOLE_LONG_POLL_SECONDS = 25;

export const caseApiEnvironment = {
  CASE_API_PORT: portVariable.default(8490),
  CASE_API_KEYS: apiKeyListSchema.optional(),
  /**
   * Origination keys (by name) that see only the cases they started; unset or unnamed: a key sees
   * every case.
   */
  CASE_API_SCOPED_KEYS: scopedKeyNamesSchema.optional(),
  CASE_API_MAX_BODY: z.coerce
    .number({ error: 'must be a number of bytes' })
    .int()
    .min(1024, 'must be at least 1024 bytes')
    .default(64 * 1024),
  CASE_API_HOST: z
    .string()
    .regex(/^[A-Za-z0-9.:-]+$/, 'must be a host name or an IP address')
    .default('127.0.0.1'),
  /** Requests per minute per API key, and per client address for requests without a known key. */
  CASE_API_RATE_LIMIT: z.coerce
    .number({ error: 'must be a number of requests' })
    .int()
    .positive('must be a positive number')
    .default(300),
  /**
   * Failed console sign-ins per 15 minutes, client address and operator name (a key alone: per
   * client address); five times as many per operator name from every address (requestLimits.ts).
   */
  CASE_API_SIGN_IN_FAILURE_LIMIT: z.coerce
    .number({ error: 'must be a number of attempts' })
    .int()
    .positive('must be a positive number')
    .default(10),
  /** Express `trust proxy`: the proxies in front of the API whose X-Forwarded-For/-Proto count. */
  CASE_API_TRUST_PROXY: trustProxyVariable.optional(),
  /** Signs console session cookies (32+ characters); generated into `.data/` when unset. */
  CASE_API_SESSION_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  /** The Temporal Web UI, for links from the console; unset: no links. */
  TEMPORAL_UI_URL: httpUrlVariable.optional(),
  /** The role that may waive a step (a key's `+<role>`, an ID token's roles); unset: every operator may. */
  CASE_API_WAIVE_ROLE: roleNameSchema.optional(),
  /**
   * How long a console page's wait for a change is held open before it is renewed (a proxy's idle
   * timeout must be longer).
   */
  CONSOLE_LONG_POLL_SECONDS: z.coerce
    .number({ error: 'must be a number of seconds' })
    .int()
    .min(1, 'must be 1 to 60 seconds')
    .max(60, 'must be 1 to 60 seconds')
    .default(DEFAULT_CONSOLE_LONG_POLL_SECONDS),
  ...oidcEnvironment,
};

export interface CaseApiConfig {
  port: number;
  keys: ApiKeyEntry[];
  /** Where the embedded default's keys are, when they are used. */
  keyFile?: string;
  maxBodyBytes: number;
  rateLimitPerMinute: number;
  /** Failed console sign-ins per 15 minutes, client address and operator name (requestLimits.ts). */
  signInFailureLimit?: number;
  /** Express `trust proxy` (hops, or addresses and subnets of the proxies); unset: none trusted. */
  trustProxy?: number | string;
  host?: string;
  sessionSecret: string;
  temporalUiUrl?: string;
  /** The role that may waive (API keys and console sessions); unset: every operator may. */
  waiveRole?: string;
  /** How long a console page's long poll for a change is held open (25 s when unset). */
  consoleLongPollMs?: number;
  /** Console sign-in with OpenID Connect (console/oidcConfig.ts); unset: with operator keys. */
  oidc?: OidcConfig;
}

export const defaultSessionSecretFile = dataPath('case-api-session-secret');

export function readCaseApiConfig(env: NodeJS.ProcessEnv = process.env, keyFile = defaultApiKeyFile): CaseApiConfig {
  const c = parseEnvironment(caseApiEnvironment, env);
  const oidc = oidcConfigOf(c);
  const embedded = c.CASE_API_KEYS ? undefined : embeddedKeyEntries(readOrCreateEmbeddedKeys(keyFile));
  const { keys, problems } = scopeKeys(c.CASE_API_KEYS ?? embedded!, c.CASE_API_SCOPED_KEYS ?? []);
  if (problems.length)
    throw new ConfigurationError(
      `Invalid configuration:\n${problems.map((p) => `  CASE_API_SCOPED_KEYS: ${p}`).join('\n')}`,
    );
  return {
    port: c.CASE_API_PORT,
    keys,
    keyFile: embedded ? keyFile : undefined,
    maxBodyBytes: c.CASE_API_MAX_BODY,
    rateLimitPerMinute: c.CASE_API_RATE_LIMIT,
    signInFailureLimit: c.CASE_API_SIGN_IN_FAILURE_LIMIT,
    trustProxy: c.CASE_API_TRUST_PROXY,
    host: c.CASE_API_HOST,
    sessionSecret:
      c.CASE_API_SESSION_SECRET ??
      readOrCreateSecretFile(defaultSessionSecretFile, () => randomBytes(32).toString('base64url')).trim(),
    temporalUiUrl: c.TEMPORAL_UI_URL,
    waiveRole: c.CASE_API_WAIVE_ROLE,
    consoleLongPollMs: c.CONSOLE_LONG_POLL_SECONDS * 1000,
    oidc,
  };
}
