/**
 * Where the case file lives (docs/architecture.md, "The case file"): `DATABASE_URL` names a PostgreSQL; unset, the
 * embedded PGlite that `npm start` serves on `CASE_FILE_PORT` (data in `CASE_FILE_DATA_DIR`).
 * Read once, validated with zod; the URL is never echoed (it may hold a password).
 */
import { z } from 'zod';
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
  /** Set when no DATABASE_URL was given: the stack serves PGlite here. */
  embedded?: { port: number; dataDir: string };
}

export function embeddedCaseFileUrl(port: number, host = '127.0.0.1'): string {
  return `postgresql://postgres@${host}:${port}/postgres`;
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
  return {
    url: embeddedCaseFileUrl(parsed.CASE_FILE_PORT),
    poolSize: EMBEDDED_POOL_SIZE,
    embedded: { port: parsed.CASE_FILE_PORT, dataDir: parsed.CASE_FILE_DATA_DIR },
  };
}
