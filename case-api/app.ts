/**
 * The case API's HTTP surface: security headers (helmet), rate limits per API key and per client
 * address (requestLimits.ts), bounded
 * JSON bodies, the OpenAPI document and its reference page (public), the v1 routes behind bearer
 * API keys, and the operator console (its own session login).
 */
import express, { type NextFunction, type Request, type Response } from 'express';
import helmet from 'helmet';
import type { Logger } from 'pino';
import { bearerAuthentication } from './authenticate';
import type { CaseGateway } from './caseGateway';
import { caseRoutes } from './caseRoutes';
import type { CaseApiConfig } from './config';
import { methodNotAllowed } from './methodNotAllowed';
import { mountRoutes } from './mountRoutes';
import { caseApiDocument } from './caseApiDocument';
import { referencePage } from './referencePage';
import { assignRequestIds } from './requestId';
import { requestRateLimit } from './requestLimits';

export { API_VERSION } from './caseApiDocument';

export function createCaseApiApp(
  config: CaseApiConfig,
  gateway: CaseGateway,
  logger: Logger,
  extraRouters: express.Router[] = [],
): express.Express {
  const app = express();
  app.disable('x-powered-by');
  // First: every answer, a refusal before the routes included, names its request.
  app.use(assignRequestIds());
  // same-origin, not no-referrer: with no-referrer browsers send `Origin: null` on form posts, and
  // the console checks Origin.
  app.use(helmet({ referrerPolicy: { policy: 'same-origin' } }));
  // Behind a proxy, the client's address and scheme are the ones the trusted proxy reports.
  app.set('trust proxy', config.trustProxy ?? false);
  app.use(requestRateLimit(config.keys, config.rateLimitPerMinute));
  const document = caseApiDocument();
  const page = referencePage(document as unknown as Parameters<typeof referencePage>[0]);
  app.get('/healthz', (_req, res) => void res.json({ status: 'ok' }));
  app.get('/openapi.json', (_req, res) => void res.json(document));
  app.get(['/', '/docs'], (_req, res) => void res.type('html').send(page));
  for (const router of extraRouters) app.use(router);

  const v1 = express.Router();
  v1.use(methodNotAllowed(caseRoutes, '/v1'));
  v1.use(bearerAuthentication(config.keys));
  mountRoutes(v1, caseRoutes, gateway, logger, '/v1', config.maxBodyBytes, { waiveRole: config.waiveRole });
  v1.use((_req, res) => void res.status(404).json({ error: 'not_found', message: 'No such route; see /openapi.json' }));
  app.use('/v1', v1);

  app.use(
    (_req, res) => void res.status(404).json({ error: 'not_found', message: 'No such route; see /openapi.json' }),
  );
  app.use((error: Error & { status?: number; type?: string }, req: Request, res: Response, _next: NextFunction) => {
    const status = error.status && error.status >= 400 && error.status < 500 ? error.status : 500;
    logger.warn({ status, type: error.type, method: req.method }, 'case api request refused');
    res.status(status).json(unreadableRequest(error, config.maxBodyBytes));
  });
  return app;
}

/**
 * What was wrong with a request express could not read (body-parser's error types, a path's
 * encoding), under the codes docs/integration.md lists: one code per kind of failure.
 */
function unreadableRequest(error: Error & { type?: string }, maxBodyBytes: number) {
  if (error instanceof URIError)
    return { error: 'invalid_request', message: 'The path is not valid percent-encoded UTF-8' };
  switch (error.type) {
    case 'entity.too.large':
      return { error: 'body_too_large', message: `Body larger than ${maxBodyBytes} bytes` };
    case 'entity.parse.failed':
      return { error: 'invalid_request', message: 'The body is not valid JSON' };
    case 'charset.unsupported':
      return { error: 'unsupported_media_type', message: "The body's charset is not supported: send UTF-8 JSON" };
    case 'encoding.unsupported':
      return {
        error: 'unsupported_media_type',
        message: "The body's Content-Encoding is not supported: send it as is, gzip, deflate or br",
      };
    default:
      return { error: 'invalid_request', message: 'The request could not be read' };
  }
}
