/**
 * The remote codec HTTP protocol the Temporal Web UI and CLI speak: `POST …/encode` and
 * `POST …/decode`, Payloads as proto3 JSON in and out. Only the last path segment names the
 * action (the protocol allows mounting at any depth); the segment before it may carry the Web
 * UI's own token, because the dev server's Web UI cannot add an Authorization header (see
 * docs/architecture.md). Every request needs a token: the kept one only as a bearer header (CLI
 * `--codec-auth`), since a URL ends up in logs and histories; the Web UI's, made for one `npm
 * start`, only in the path. CORS admits only the configured Web UI origins.
 */
import express, { type NextFunction, type Request, type Response } from 'express';
import type { PayloadCodec } from '@temporalio/common';
import { bearerToken, tokenMatches } from './bearerToken';
import type { CodecServerConfig } from './codecServerConfig';
import { PayloadDecryptionError } from './encryptionCodec';
import { payloadFromJson, payloadsBodySchema, payloadToJson } from './payloadJson';

const ALLOWED_HEADERS = 'content-type, x-namespace, authorization';

export function createCodecServerApp(codec: PayloadCodec, config: Omit<CodecServerConfig, 'port'>): express.Express {
  const app = express();
  app.disable('x-powered-by');
  app.use(cors(config.allowedOrigins));
  const authorize = requireToken(config.token, config.uiToken);
  const body = express.json({ limit: config.maxBodyBytes, type: () => true });
  app.post(['/:action', '/:token/:action'], authorize, body, (req, res, next) => {
    void runCodec(codec, req, res).catch(next);
  });
  app.use((_req: Request, res: Response) => void res.status(404).json({ error: 'not found: POST /encode or /decode' }));
  app.use(errorHandler);
  return app;
}

/** CORS for the Web UI: preflight answered without a token (browsers never send one there). */
function cors(allowedOrigins: readonly string[]) {
  const allowed = new Set(allowedOrigins);
  return (req: Request, res: Response, next: NextFunction) => {
    const origin = req.get('origin');
    if (!origin) return next();
    if (!allowed.has(origin))
      return void res.status(403).json({ error: 'origin not allowed (CODEC_SERVER_CORS_ORIGINS)' });
    // No allow-credentials: a token is a bearer header or a path segment, never a cookie.
    res.set({ 'access-control-allow-origin': origin, vary: 'Origin' });
    if (req.method !== 'OPTIONS') return next();
    res.set({
      'access-control-allow-methods': 'POST, OPTIONS',
      'access-control-allow-headers': ALLOWED_HEADERS,
      'access-control-max-age': '600',
    });
    res.status(204).end();
  };
}

/**
 * The kept token only as a bearer header; the Web UI's own token (when there is one) only in the
 * path. Any other token in the path, the kept one included, is refused like a wrong one.
 */
function requireToken(expected: string, uiToken: string | undefined) {
  return (req: Request, res: Response, next: NextFunction) => {
    const bearer = bearerToken(req.get('authorization'));
    const inPath = typeof req.params.token === 'string' ? req.params.token : undefined;
    if (inPath === undefined && tokenMatches(bearer, expected)) return next();
    if (uiToken && bearer === undefined && tokenMatches(inPath, uiToken)) return next();
    res.set('www-authenticate', 'Bearer realm="codec"').status(401).json({ error: 'a valid bearer token is required' });
  };
}

async function runCodec(codec: PayloadCodec, req: Request, res: Response): Promise<void> {
  const action = req.params.action;
  if (action !== 'encode' && action !== 'decode')
    return void res.status(404).json({ error: 'not found: POST /encode or /decode' });
  const parsed = payloadsBodySchema.safeParse(req.body);
  if (!parsed.success) {
    return void res.status(400).json({
      error: 'body must be { payloads: [{ metadata: { key: base64 }, data: base64 }] }',
      issues: parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`),
    });
  }
  const payloads = parsed.data.payloads.map(payloadFromJson);
  try {
    const result = action === 'encode' ? await codec.encode(payloads) : await codec.decode(payloads);
    res.json({ payloads: result.map(payloadToJson) });
  } catch (error) {
    if (!(error instanceof PayloadDecryptionError)) throw error;
    res.status(422).json({ error: error.message });
  }
}

/** Body parser errors keep their 4xx status (malformed JSON 400, too large 413); anything else is a bare 500. */
function errorHandler(
  error: { status?: number; type?: string },
  _req: Request,
  res: Response,
  _next: NextFunction,
): void {
  const status = typeof error.status === 'number' && error.status >= 400 && error.status < 500 ? error.status : 500;
  const message =
    status === 413
      ? 'body too large (CODEC_SERVER_MAX_BODY)'
      : status === 500
        ? 'internal error'
        : `bad request (${error.type ?? 'invalid body'})`;
  res.status(status).json({ error: message });
}
