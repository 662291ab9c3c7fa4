/**
 * Where the case file lives (docs/architecture.md, "The case file"): `DATABASE_URL` names a PostgreSQL; unset, the
 * embedded PGlite that `npm start` serves on `CASE_FILE_PORT` (data in `CASE_FILE_DATA_DIR`), which
 * asks for the password generated once in `.data/case-file-password` (mode 0600).
 * Read once, validated with zod; the URL is never echoed (it holds a password).
 */
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { readOrCreateSecretFile } from '../codec/secretFile';
import { parseEnvironment, portVariable } from '../config/environment';
import { dataPath } from '../config/projectRoot';
import { EMBEDDED_POOL_SIZE } from './pool';

export const DEFAULT_CASE_FILE_PORT = 5433;

const postgresUrl = z.string().refine((value) => /^postgres(ql)?:\/\/[^\s]+$/.test(value) && URL.canParse(value), {
  message: 'must be a postgres:// or postgresql:// URL',
});

export interface CaseFileConfig {
  /** The database every process connects to. */
  url: string;
  /** Connections of this process's pool. */
  poolSize: number;
  /** Set when no DATABASE_URL was given: the stack serves PGlite here, to clients with the password. */
  embedded?: { port: number; dataDir: string; password: string };
}

export const defaultPasswordFile = dataPath('case-file-password');

export function embeddedCaseFileUrl(port: number, password: string, host = '127.0.0.1'): string {
  return `postgresql://postgres:${encodeURIComponent(password)}@${host}:${port}/postgres`;
}

/** The URL without its password, for messages. */
export function withoutPassword(url: string): string {
  const parsed = new URL(url);
  parsed.password = '';
  return parsed.toString();
}

/** The embedded case file's password: generated once and kept in `file` (0600), like the payload keys. */
export function embeddedCaseFilePassword(file = defaultPasswordFile): string {
  return readOrCreateSecretFile(file, () => randomBytes(24).toString('base64url')).trim();
}

export function readCaseFileConfig(env: NodeJS.ProcessEnv = process.env): CaseFileConfig {
  const parsed = parseEnvironment(
    {
      DATABASE_URL: postgresUrl.optional(),
      DATABASE_POOL_SIZE: z.coerce.number({ error: 'must be a number' }).int().min(1).max(100).default(5),
      CASE_FILE_PORT: portVariable.default(DEFAULT_CASE_FILE_PORT),
      CASE_FILE_DATA_DIR: z.string().min(1).default(dataPath('case-file')),
    },
    env,
  );
  if (parsed.DATABASE_URL) return { url: parsed.DATABASE_URL, poolSize: parsed.DATABASE_POOL_SIZE };
  const password = embeddedCaseFilePassword();
  return {
    url: embeddedCaseFileUrl(parsed.CASE_FILE_PORT, password),
    poolSize: EMBEDDED_POOL_SIZE,
    embedded: { port: parsed.CASE_FILE_PORT, dataDir: parsed.CASE_FILE_DATA_DIR, password },
  };
}
