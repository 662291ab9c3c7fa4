/**
 * The console's OpenID Connect sign-in, configured by environment variables (README,
 * docs/deployment.md) and validated with the rest of the case API's configuration: when
 * `CONSOLE_OIDC_ISSUER` is set, operators sign in to the console at that issuer (authorization
 * code flow with PKCE) instead of with an operator API key; the ID token names them and gives
 * their roles. Unset, the console signs in with named operator keys (the default).
 */
import { z } from 'zod';
import { ConfigurationError, httpUrlVariable } from '../../config/environment';

/** The callback's path on the case API; `CONSOLE_OIDC_REDIRECT_URL` is its public URL. */
export const OIDC_CALLBACK_PATH = '/console/oidc/callback';

const claimPath = z
  .string()
  .regex(
    /^[A-Za-z0-9_:/.-]{1,200}$/,
    'must be a claim name (a dotted path for a nested claim, like realm_access.roles)',
  );

export const oidcEnvironment = {
  /** The issuer's URL (discovery at `<issuer>/.well-known/openid-configuration`); unset: no OIDC. */
  CONSOLE_OIDC_ISSUER: httpUrlVariable.optional(),
  CONSOLE_OIDC_CLIENT_ID: z.string().min(1).max(500).optional(),
  /** The client's secret, sent to the token endpoint in the body (client_secret_post). */
  CONSOLE_OIDC_CLIENT_SECRET: z.string().min(1).max(1000).optional(),
  /** The public URL of `/console/oidc/callback`, as registered at the issuer. */
  CONSOLE_OIDC_REDIRECT_URL: httpUrlVariable.optional(),
  CONSOLE_OIDC_SCOPES: z
    .string()
    .regex(/^openid( [\x21\x23-\x5B\x5D-\x7E]+)*$/, 'must be space-separated scopes starting with openid')
    .default('openid profile'),
  /** The ID token's claim with the operator's name (shown and audited); falls back to preferred_username, then sub. */
  CONSOLE_OIDC_NAME_CLAIM: claimPath.default('name'),
  /** The ID token's claim with the operator's roles (an array, or space- or comma-separated text). */
  CONSOLE_OIDC_ROLES_CLAIM: claimPath.default('roles'),
};

export interface OidcConfig {
  issuer: string;
  clientId: string;
  clientSecret: string;
  redirectUrl: string;
  scopes: string;
  nameClaim: string;
  rolesClaim: string;
  /** Plain http to the issuer, allowed only for an issuer on this machine (tests, a local IdP). */
  allowHttp: boolean;
}

const loopbackHosts = ['127.0.0.1', 'localhost', '[::1]'];

/** The OIDC settings when an issuer is configured; a ConfigurationError naming each missing or wrong variable. */
export function oidcConfigOf(c: z.output<z.ZodObject<typeof oidcEnvironment>>): OidcConfig | undefined {
  const problems: string[] = [];
  if (!c.CONSOLE_OIDC_ISSUER) {
    for (const name of ['CONSOLE_OIDC_CLIENT_ID', 'CONSOLE_OIDC_CLIENT_SECRET', 'CONSOLE_OIDC_REDIRECT_URL'] as const) {
      if (c[name])
        problems.push(
          `  ${name}: is set but CONSOLE_OIDC_ISSUER is not (set the issuer to sign in with OpenID Connect)`,
        );
    }
    if (problems.length) throw new ConfigurationError(`Invalid configuration:\n${problems.join('\n')}`);
    return undefined;
  }
  const issuer = new URL(c.CONSOLE_OIDC_ISSUER);
  const allowHttp = loopbackHosts.includes(issuer.hostname);
  if (issuer.protocol !== 'https:' && !allowHttp)
    problems.push(
      '  CONSOLE_OIDC_ISSUER: must be an https URL (plain http only for an issuer on 127.0.0.1 or localhost)',
    );
  for (const name of ['CONSOLE_OIDC_CLIENT_ID', 'CONSOLE_OIDC_CLIENT_SECRET', 'CONSOLE_OIDC_REDIRECT_URL'] as const) {
    if (!c[name]) problems.push(`  ${name}: is required when CONSOLE_OIDC_ISSUER is set`);
  }
  if (c.CONSOLE_OIDC_REDIRECT_URL && new URL(c.CONSOLE_OIDC_REDIRECT_URL).pathname !== OIDC_CALLBACK_PATH) {
    problems.push(`  CONSOLE_OIDC_REDIRECT_URL: must be the case API's public URL of ${OIDC_CALLBACK_PATH}`);
  }
  if (problems.length) throw new ConfigurationError(`Invalid configuration:\n${problems.join('\n')}`);
  return {
    issuer: c.CONSOLE_OIDC_ISSUER,
    clientId: c.CONSOLE_OIDC_CLIENT_ID!,
    clientSecret: c.CONSOLE_OIDC_CLIENT_SECRET!,
    redirectUrl: c.CONSOLE_OIDC_REDIRECT_URL!,
    scopes: c.CONSOLE_OIDC_SCOPES,
    nameClaim: c.CONSOLE_OIDC_NAME_CLAIM,
    rolesClaim: c.CONSOLE_OIDC_ROLES_CLAIM,
    allowHttp,
  };
}
