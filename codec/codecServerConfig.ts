/**
 * The codec server's configuration, read from the environment like every process's: port, bearer
 * token, the Web UI origins allowed by CORS. The embedded default's token is generated once under
 * `.data/` and never printed.
 */
import { dataPath } from '../config/projectRoot';
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { parseEnvironment, portVariable } from '../config/environment';
import { readOrCreateSecretFile } from './secretFile';

export interface CodecServerConfig {
  /** The interface to listen on: loopback unless set (a container: 0.0.0.0). */
  host?: string;
  port: number;
  /** The kept token: accepted only as a bearer header (Authorization), never in a URL. */
  token: string;
  /**
   * A token for the dev server's Web UI only, generated for each `npm start` and accepted only in
   * the path: the UI endpoint is on the dev server's command line, so it must not carry the
   * long-lived token (CODEC_SERVER_TOKEN or `.data/codec-server-token`), which stays in files.
   */
  uiToken?: string;
  /** Browser origins (the Web UI's) allowed to call the server. */
  allowedOrigins: string[];
  maxBodyBytes: number;
}

/** The embedded dev server's Web UI, under both names a browser may use for it. */
export const uiOrigins = (uiPort: number) => [`http://127.0.0.1:${uiPort}`, `http://localhost:${uiPort}`];

export const tokenPattern = /^[A-Za-z0-9._~-]{16,256}$/;
export const defaultTokenFile = dataPath('codec-server-token');

const originList = z
  .string()
  .transform((value) =>
    value
      .split(',')
      .map((o) => o.trim())
      .filter(Boolean),
  )
  .pipe(
    z
      .array(z.url({ protocol: /^https?$/, error: 'each origin must be an http(s) URL such as http://127.0.0.1:8233' }))
      .min(1),
  )
  .transform((origins) => origins.map((o) => new URL(o).origin));

export const codecServerEnvironment = {
  CODEC_SERVER_HOST: z
    .string()
    .regex(/^[A-Za-z0-9.:-]+$/, 'must be a host name or an IP address')
    .default('127.0.0.1'),
  CODEC_SERVER_PORT: portVariable.default(8888),
  CODEC_SERVER_TOKEN: z
    .string()
    .regex(tokenPattern, 'must be 16–256 URL-safe characters (letters, digits, . _ ~ -)')
    .optional(),
  CODEC_SERVER_CORS_ORIGINS: originList.default(uiOrigins(8233)),
  CODEC_SERVER_MAX_BODY: z.coerce
    .number({ error: 'must be a number of bytes' })
    .int()
    .min(1024, 'must be at least 1024 bytes')
    .default(16 * 1024 * 1024),
};

export function readCodecServerConfig(
  env: NodeJS.ProcessEnv = process.env,
  tokenFile = defaultTokenFile,
): CodecServerConfig {
  const config = parseEnvironment(codecServerEnvironment, env);
  return {
    host: config.CODEC_SERVER_HOST,
    port: config.CODEC_SERVER_PORT,
    token: config.CODEC_SERVER_TOKEN ?? readOrCreateSecretFile(tokenFile, generateCodecServerToken).trim(),
    allowedOrigins: config.CODEC_SERVER_CORS_ORIGINS,
    maxBodyBytes: config.CODEC_SERVER_MAX_BODY,
  };
}

export function generateCodecServerToken(): string {
  return randomBytes(24).toString('base64url');
}
