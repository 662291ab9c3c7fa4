/**
 * Where journey events go: `CASE_EVENTS_URL` (unset: no notifications, the activity does nothing)
 * and `CASE_EVENTS_SECRET`, the Standard Webhooks signing secret (`whsec_<base64>`) shared with the LOS.
 */
import { z } from 'zod';
import { ConfigurationError, httpUrlVariable, parseEnvironment } from '../config/environment';

export interface CaseEventsConfig {
  url?: string;
  secret?: string;
  timeoutMs: number;
}

export const caseEventsEnvironment = {
  CASE_EVENTS_URL: httpUrlVariable.optional(),
  CASE_EVENTS_SECRET: z.string().regex(/^whsec_[A-Za-z0-9+/]{32,}={0,2}$/, 'must be whsec_ followed by a Base64 key of 24 bytes or more').optional(),
  CASE_EVENTS_TIMEOUT_MS: z.coerce.number({ error: 'must be a number of milliseconds' }).int().positive('must be a positive number of milliseconds').default(10_000),
};

export function readCaseEventsConfig(env: NodeJS.ProcessEnv = process.env): CaseEventsConfig {
  const c = parseEnvironment(caseEventsEnvironment, env);
  if (c.CASE_EVENTS_URL && !c.CASE_EVENTS_SECRET) throw new ConfigurationError('Invalid configuration:\n  CASE_EVENTS_SECRET: required when CASE_EVENTS_URL is set');
  return { url: c.CASE_EVENTS_URL, secret: c.CASE_EVENTS_SECRET, timeoutMs: c.CASE_EVENTS_TIMEOUT_MS };
}
