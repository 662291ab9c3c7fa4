/** The bridge's configuration (DESIGN.md §9), read once and validated. */
import path from 'node:path';
import { z } from 'zod';
import { booleanVariable, ConfigurationError, parseEnvironment, portVariable } from '../worker/environment';

export const bridgeEnvironment = {
  BRIDGE_PORT: portVariable.default(8470),
  BRIDGE_PATH: z.string().regex(/^\/[A-Za-z0-9/_-]*$/, 'must be a path starting with /').default('/webhooks'),
  BRIDGE_SPOOL_DIR: z.string().min(1).default(path.resolve(__dirname, '..', '.data', 'spool')),
  BRIDGE_MAX_BODY: z.coerce.number().int('must be a whole number of bytes').positive('must be a positive number of bytes').default(1024 * 1024),
  WEBHOOK_SECRET: z.string().min(1).optional(),
  WEBHOOK_SECRET_PREVIOUS: z.string().min(1).optional(),
  WEBHOOK_REQUIRE_SIGNATURE: booleanVariable.default(false),
};

export interface BridgeConfig {
  port: number;
  path: string;
  spoolDir: string;
  maxBodyBytes: number;
  /** Current first, then previous. */
  secrets: string[];
  requireSignature: boolean;
}

export function readBridgeConfig(env: NodeJS.ProcessEnv = process.env): BridgeConfig {
  const c = parseEnvironment(bridgeEnvironment, env);
  if (c.WEBHOOK_SECRET_PREVIOUS && !c.WEBHOOK_SECRET) {
    throw new ConfigurationError('Invalid configuration:\n  WEBHOOK_SECRET: required when WEBHOOK_SECRET_PREVIOUS is set');
  }
  if (c.WEBHOOK_REQUIRE_SIGNATURE && !c.WEBHOOK_SECRET) {
    throw new ConfigurationError('Invalid configuration:\n  WEBHOOK_SECRET: required when WEBHOOK_REQUIRE_SIGNATURE is true');
  }
  return {
    port: c.BRIDGE_PORT,
    path: c.BRIDGE_PATH,
    spoolDir: c.BRIDGE_SPOOL_DIR,
    maxBodyBytes: c.BRIDGE_MAX_BODY,
    secrets: [c.WEBHOOK_SECRET, c.WEBHOOK_SECRET_PREVIOUS].filter((s): s is string => Boolean(s)),
    requireSignature: c.WEBHOOK_REQUIRE_SIGNATURE,
  };
}
