/**
 * Reads configuration from environment variables once, validated with zod, failing fast with a
 * message that names each bad variable. Values are never echoed: some are
 * secrets.
 */
import { z } from 'zod';

export class ConfigurationError extends Error {
  override name = 'ConfigurationError';
}

export function parseEnvironment<Shape extends z.ZodRawShape>(
  shape: Shape,
  env: NodeJS.ProcessEnv = process.env,
): z.output<z.ZodObject<Shape>> {
  const picked = Object.fromEntries(Object.keys(shape).map((name) => [name, env[name] === '' ? undefined : env[name]]));
  const result = z.object(shape).safeParse(picked);
  if (result.success) return result.data;
  const lines = result.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
  throw new ConfigurationError(`Invalid configuration:\n${lines.join('\n')}`);
}

/** `true/false/1/0/yes/no`, case-insensitive. */
export const booleanVariable = z
  .string()
  .transform((v) => v.toLowerCase())
  .pipe(z.enum(['true', 'false', '1', '0', 'yes', 'no'], { error: 'must be true or false' }))
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

export const portVariable = z.coerce
  .number({ error: 'must be a port number' })
  .int('must be a whole number')
  .min(0, 'must be between 0 and 65535')
  .max(65535, 'must be between 0 and 65535');

export const httpUrlVariable = z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' });
