/**
 * Reads configuration from environment variables once, validated with zod, failing fast with a
 * message that names each bad variable. Values are never echoed: some are
 * secrets. Each variable may come from the file `<NAME>_FILE` names (config/secretFromFile.ts).
 */
import { z } from 'zod';
import { SecretFileError, secretFromFile } from './secretFromFile';

export class ConfigurationError extends Error {
  override name = 'ConfigurationError';
}

export function parseEnvironment<Shape extends z.ZodRawShape>(
  shape: Shape,
  env: NodeJS.ProcessEnv = process.env,
): z.output<z.ZodObject<Shape>> {
  const picked = Object.fromEntries(Object.keys(shape).map((name) => [name, readVariable(name, env)]));
  const result = z.object(shape).safeParse(picked);
  if (result.success) return result.data;
  const lines = result.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
  throw new ConfigurationError(`Invalid configuration:\n${lines.join('\n')}`);
}

function readVariable(name: string, env: NodeJS.ProcessEnv): string | undefined {
  try {
    return secretFromFile(name, env);
  } catch (error) {
    if (error instanceof SecretFileError) throw new ConfigurationError(`Invalid configuration:\n  ${error.message}`);
    throw error;
  }
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
