/** How the API client reaches the provider, read from the environment. Defaults serve the embedded stack. */
import { z } from 'zod';
import { httpUrlVariable, parseEnvironment } from '../config/environment';

export const providerEnvironment = {
  PROVIDER_BASE_URL: httpUrlVariable.default('http://127.0.0.1:8480'),
  PROVIDER_AUTH_URL: httpUrlVariable.default('http://127.0.0.1:8480/oauth'),
  PROVIDER_CLIENT_ID: z.string().min(1).default('demo-client'),
  PROVIDER_CLIENT_SECRET: z.string().min(1).default('demo-secret'),
  PROVIDER_CLIENT_SECRET_SECONDARY: z.string().min(1).optional(),
  /** When the primary secret expires (the dashboard shows it, §5.5); a warning comes 30 days ahead. */
  PROVIDER_CLIENT_SECRET_EXPIRES_AT: z.iso.date({ error: 'must be a date, YYYY-MM-DD' }).optional(),
  PROVIDER_REQUEST_TIMEOUT_MS: z.coerce
    .number()
    .int()
    .positive('must be a positive number of milliseconds')
    .default(10_000),
};

export interface ProviderConfig {
  baseUrl: string;
  authUrl: string;
  clientId: string;
  clientSecrets: string[];
  requestTimeoutMs: number;
  clientSecretExpiresAt?: Date;
}

export function readProviderConfig(env: NodeJS.ProcessEnv = process.env): ProviderConfig {
  const c = parseEnvironment(providerEnvironment, env);
  return {
    baseUrl: c.PROVIDER_BASE_URL.replace(/\/+$/, ''),
    authUrl: c.PROVIDER_AUTH_URL.replace(/\/+$/, ''),
    clientId: c.PROVIDER_CLIENT_ID,
    clientSecrets: [
      c.PROVIDER_CLIENT_SECRET,
      ...(c.PROVIDER_CLIENT_SECRET_SECONDARY ? [c.PROVIDER_CLIENT_SECRET_SECONDARY] : []),
    ],
    requestTimeoutMs: c.PROVIDER_REQUEST_TIMEOUT_MS,
    clientSecretExpiresAt: c.PROVIDER_CLIENT_SECRET_EXPIRES_AT
      ? new Date(`${c.PROVIDER_CLIENT_SECRET_EXPIRES_AT}T00:00:00Z`)
      : undefined,
  };
}
