/**
 * The bridge's HTTP surface: `POST <path>` takes a delivery, verifies its signature on the raw
 * bytes before anything is parsed, validates the envelope, and answers 2xx only once every target
 * resource workflow has accepted its signal (DESIGN.md §6.1).
 */
import express, { type NextFunction, type Request, type Response } from 'express';
import type { Logger } from 'pino';
import { parseDelivery } from '../provider';
import { describeTargets, planDelivery, type RoutedDelivery } from './routeDelivery';
import { SIGNATURE_HEADER, verifySignature } from './verifySignature';

export interface BridgeDependencies {
  path: string;
  maxBodyBytes: number;
  /** Current secret first, then the previous one; read on every delivery so rotation applies at once. */
  secrets: () => readonly string[];
  requireSignature: boolean;
  /** Hands the routed delivery to Temporal; throws if Temporal did not accept it. */
  signal: (routed: RoutedDelivery) => Promise<void>;
  logger: Logger;
}

const BATCH_HEADER = 'x-batch-correlation-id';

export function createBridgeApp(deps: BridgeDependencies): express.Express {
  const app = express();
  app.disable('x-powered-by');
  let warnedUnsigned = false;

  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });

  app.post(deps.path, express.raw({ type: () => true, limit: deps.maxBodyBytes }), async (req: Request, res: Response) => {
    const raw = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
    const batchId = headerValue(req, BATCH_HEADER);
    const log = deps.logger.child({ batchId });

    const secrets = deps.secrets();
    const verdict = verifySignature(raw, headerValue(req, SIGNATURE_HEADER) ?? undefined, secrets, deps.requireSignature);
    if (!verdict.ok) {
      log.warn({ outcome: 'signature_rejected', reason: verdict.reason, bytes: raw.length }, 'delivery refused: signature');
      res.status(401).json({ error: 'invalid_signature', message: 'X-HMAC-SHA256-Signature is missing or does not match' });
      return;
    }
    if (!verdict.signed && !warnedUnsigned) {
      warnedUnsigned = true;
      log.warn('no webhook secret configured: accepting unsigned deliveries (set WEBHOOK_SECRET to verify them)');
    }

    let body: unknown;
    try {
      body = JSON.parse(raw.toString('utf8'));
    } catch {
      log.warn({ outcome: 'malformed_json', bytes: raw.length }, 'delivery refused: body is not JSON');
      res.status(400).json({ error: 'malformed_json', message: 'The body is not valid JSON' });
      return;
    }

    const routed = planDelivery(parseDelivery(body), body, { batchId, receivedAt: new Date().toISOString() });
    const eventLog = log.child({ eventType: routed.eventType, parse: routed.parse });
    try {
      await deps.signal(routed);
    } catch (error) {
      eventLog.error({ outcome: 'signal_failed', err: String(error) }, 'Temporal did not accept the delivery');
      res.status(503).json({ error: 'unavailable', message: 'The delivery could not be recorded; it was not accepted' });
      return;
    }
    eventLog.info({ outcome: 'accepted', targets: describeTargets(routed) }, 'delivery accepted');
    res.status(202).json({ status: 'accepted' });
  });

  // Body-parser failures (size, encoding) and anything unexpected: answer, never crash.
  app.use((error: Error & { status?: number; type?: string }, req: Request, res: Response, _next: NextFunction) => {
    const status = error.status && error.status >= 400 && error.status < 500 ? error.status : 500;
    deps.logger.warn({ outcome: 'rejected', status, type: error.type, path: req.path }, error.message);
    res.status(status).json({ error: error.type ?? 'bad_request', message: status === 413 ? `Body larger than ${deps.maxBodyBytes} bytes` : error.message });
  });

  return app;
}

function headerValue(req: Request, name: string): string | null {
  const value = req.headers[name];
  return typeof value === 'string' ? value : null;
}
