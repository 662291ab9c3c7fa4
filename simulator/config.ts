/** The simulator's configuration, read from the environment. */
import { z } from 'zod';
import { booleanVariable, parseEnvironment, portVariable } from '../config/environment';
import { faultRatesSchema, type FaultRates } from './faultRates';
import { idempotencyModeSchema, type IdempotencyMode } from './idempotency';
import { clockSeed } from './seededRandom';

export const simulatorEnvironment = {
  SIMULATOR_PORT: portVariable.default(8480),
  SIMULATOR_CLIENT_ID: z.string().min(1).default('demo-client'),
  SIMULATOR_CLIENT_SECRET: z.string().min(1).default('demo-secret'),
  /** Unset: a seed from the clock, so ids never repeat across restarts against a persistent Temporal. */
  SIMULATOR_SEED: z.coerce.number({ error: 'must be a number' }).int('must be a whole number').optional(),
  SIMULATOR_TOKEN_LIFETIME_SECONDS: z.coerce
    .number()
    .int()
    .positive('must be a positive number of seconds')
    .default(3600),
  /** Local development: accept plain http:// callbacks to loopback addresses. */
  SIMULATOR_ALLOW_INSECURE_LOOPBACK_CALLBACKS: booleanVariable.default(false),
  /** How long document processing and insights take. */
  SIMULATOR_PROCESSING_DELAY_MS: z.coerce.number().int().min(0, 'must be 0 or more milliseconds').default(500),
  /** Where the simulator keeps its state across restarts (JSON); unset: in memory only. */
  SIMULATOR_STATE_FILE: z.string().min(1).optional(),
  /**
   * The base URL clients reach it at (behind a proxy or an ingress): written into payload links and
   * expected in the token scope.
   */
  SIMULATOR_PUBLIC_URL: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).optional(),
  /**
   * `ignored` (the default: the provider's interface gives no idempotency) or `honoured`: a repeated
   * `Idempotency-Key` answers the first call's answer again (simulator/idempotency.ts).
   */
  SIMULATOR_IDEMPOTENCY_KEYS: idempotencyModeSchema.default('ignored'),
  /** Fault rates as JSON, e.g. {"delivery_drop_rate":0.1} (see simulator/faultRates.ts). */
  SIMULATOR_FAULTS: z
    .string()
    .transform((text, ctx) => {
      try {
        return JSON.parse(text) as unknown;
      } catch {
        ctx.addIssue({ code: 'custom', message: 'must be JSON' });
        return z.NEVER;
      }
    })
    .pipe(faultRatesSchema)
    .optional(),
};

export interface SimulatorConfig {
  port: number;
  clientId: string;
  clientSecret: string;
  seed: number;
  tokenLifetimeSeconds: number;
  allowInsecureLoopbackCallbacks: boolean;
  processingDelayMs?: number;
  faults?: Partial<FaultRates>;
  /** Whether `Idempotency-Key` is honoured; `ignored` when unset. */
  idempotencyKeys?: IdempotencyMode;
  /** Restore from and save to this file (see savedState.ts). */
  stateFile?: string;
  /** The base URL clients reach the simulator at; `http://127.0.0.1:<port>` when unset. */
  publicUrl?: string;
  /** The clock tokens are issued and checked by (tests move it on instead of waiting); Date.now when unset. */
  now?: () => number;
}

export function readSimulatorConfig(env: NodeJS.ProcessEnv = process.env): SimulatorConfig {
  const c = parseEnvironment(simulatorEnvironment, env);
  return {
    port: c.SIMULATOR_PORT,
    clientId: c.SIMULATOR_CLIENT_ID,
    clientSecret: c.SIMULATOR_CLIENT_SECRET,
    seed: c.SIMULATOR_SEED ?? clockSeed(),
    tokenLifetimeSeconds: c.SIMULATOR_TOKEN_LIFETIME_SECONDS,
    allowInsecureLoopbackCallbacks: c.SIMULATOR_ALLOW_INSECURE_LOOPBACK_CALLBACKS,
    processingDelayMs: c.SIMULATOR_PROCESSING_DELAY_MS,
    faults: c.SIMULATOR_FAULTS,
    idempotencyKeys: c.SIMULATOR_IDEMPOTENCY_KEYS,
    stateFile: c.SIMULATOR_STATE_FILE,
    publicUrl: c.SIMULATOR_PUBLIC_URL,
  };
}
