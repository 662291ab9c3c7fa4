/**
 * The embedded default's API keys: one `origination` and one `operator` key, generated once into
 * `.data/case-api-keys.json` (mode 0600) for the person running the stack to read. The server
 * only ever holds their hashes.
 */
import { dataPath } from '../config/projectRoot';
import { z } from 'zod';
import { readOrCreateSecretFile } from '../codec/secretFile';
import { generateApiKey, hashApiKey, type ApiKeyEntry } from './apiKeys';

export const defaultApiKeyFile = dataPath('case-api-keys.json');

const keyFileSchema = z.object({ origination: z.string().min(16), operator: z.string().min(16) });
export type EmbeddedApiKeys = z.output<typeof keyFileSchema>;

export function readOrCreateEmbeddedKeys(file = defaultApiKeyFile): EmbeddedApiKeys {
  const text = readOrCreateSecretFile(
    file,
    () =>
      JSON.stringify({ origination: generateApiKey('origination'), operator: generateApiKey('operator') }, null, 2) +
      '\n',
  );
  const parsed = keyFileSchema.safeParse(JSON.parse(text));
  if (!parsed.success) throw new Error(`${file} is not a case API key file; delete it to generate new keys`);
  return parsed.data;
}

export function embeddedKeyEntries(keys: EmbeddedApiKeys): ApiKeyEntry[] {
  return [
    { name: 'embedded-origination', role: 'origination', hash: hashApiKey(keys.origination) },
    { name: 'embedded-operator', role: 'operator', hash: hashApiKey(keys.operator) },
  ];
}
