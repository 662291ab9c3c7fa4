/**
 * The case API's configuration, read once and validated (DESIGN.md §6.6, §9). Without
 * `CASE_API_KEYS` the embedded default generates keys into `.data/case-api-keys.json`.
 */
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { readOrCreateSecretFile } from '../codec/secretFile';
import { httpUrlVariable, parseEnvironment, portVariable } from '../config/environment';
import { dataPath } from '../config/projectRoot';
import { apiKeyListSchema, type ApiKeyEntry } from './apiKeys';
import { defaultApiKeyFile, embeddedKeyEntries, readOrCreateEmbeddedKeys } from './embeddedApiKeys';

export const caseApiEnvironment = {
  CASE_API_PORT: portVariable.default(8490),
  CASE_API_KEYS: apiKeyListSchema.optional(),
  CASE_API_MAX_BODY: z.coerce.number({ error: 'must be a number of bytes' }).int().min(1024, 'must be at least 1024 bytes').default(64 * 1024),
  /** Requests per minute and client address. */
  CASE_API_RATE_LIMIT: z.coerce.number({ error: 'must be a number of requests' }).int().positive('must be a positive number').default(300),
  /** Signs console session cookies (32+ characters); generated into `.data/` when unset. */
  CASE_API_SESSION_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  /** The Temporal Web UI, for links from the console; unset: no links. */
  TEMPORAL_UI_URL: httpUrlVariable.optional(),
};

export interface CaseApiConfig {
  port: number;
  keys: ApiKeyEntry[];
  /** Where the embedded default's keys are, when they are used. */
  keyFile?: string;
  maxBodyBytes: number;
  rateLimitPerMinute: number;
  sessionSecret: string;
  temporalUiUrl?: string;
}

export const defaultSessionSecretFile = dataPath('case-api-session-secret');

export function readCaseApiConfig(env: NodeJS.ProcessEnv = process.env, keyFile = defaultApiKeyFile): CaseApiConfig {
  const c = parseEnvironment(caseApiEnvironment, env);
  const embedded = c.CASE_API_KEYS ? undefined : embeddedKeyEntries(readOrCreateEmbeddedKeys(keyFile));
  return {
    port: c.CASE_API_PORT,
    keys: c.CASE_API_KEYS ?? embedded!,
    keyFile: embedded ? keyFile : undefined,
    maxBodyBytes: c.CASE_API_MAX_BODY,
    rateLimitPerMinute: c.CASE_API_RATE_LIMIT,
    sessionSecret: c.CASE_API_SESSION_SECRET ?? readOrCreateSecretFile(defaultSessionSecretFile, () => randomBytes(32).toString('base64url')).trim(),
    temporalUiUrl: c.TEMPORAL_UI_URL,
  };
}
