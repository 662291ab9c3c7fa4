/**
 * The bridge's HTTP surface. `POST <path>` takes a delivery: the signature is checked on the raw
 * bytes before anything is parsed, then the envelope is validated, and 2xx is answered only once
 * the delivery is durably recorded, signalled to Temporal or fsynced to the spool
 * (docs/architecture.md, "Nothing answered 2xx is lost").
 */
import express, { type NextFunction, type Request, type Response } from 'express';
import type { Logger } from 'pino';
import { boundedId } from '../provider';
import type { DeliveryRecorder } from './deliveryRecorder';
import type { BridgeMetrics } from './metrics';
import type { SecretRing } from './secretRing';
import { eventTypeLabel } from './eventTypeLabel';
import { checkSignature } from './signatureCheck';
import { SIGNATURE_HEADER } from './verifySignature';

export interface BridgeDependencies {
  path: string;
  maxBodyBytes: number;
  secrets: SecretRing;
  requireSignature: boolean;
  recorder: DeliveryRecorder;
  metrics: BridgeMetrics;
  logger: Logger;
}

const BATCH_HEADER = 'x-batch-correlation-id';
/** The answer to every accepted delivery, serialised once. */
const ACCEPTED_BODY = JSON.stringify({ status: 'accepted' });

export function createBridgeApp(deps: BridgeDependencies): express.Express {
  const app = express();
  app.disable('x-powered-by');
  // No ETag: answers are not cached, and hashing every 202 body costs the hot path.
  app.set('etag', false);
  const { metrics, logger } = deps;
  let warnedUnsigned = false;

  // Liveness: the process answers.
  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });

  // Readiness: a delivery sent now would be durably accepted (the spool takes it whatever Temporal
  // does), so a load balancer keeps this bridge while Temporal is away. Temporal's state is told,
  // as last known, without waiting for it.
  app.get('/readyz', (_req, res) => {
    const { recorder } = deps;
    const spoolWritable = recorder.spoolWritable();
    const spoolFull = recorder.spoolFull;
    const ready = spoolWritable && !spoolFull;
    res.status(ready ? 200 : 503).json({
      ready,
      temporal: recorder.temporal.current(),
      spool_depth: recorder.spoolDepth,
      spool_full: spoolFull,
      spool_writable: spoolWritable,
    });
  });

  app.get('/metrics', async (_req, res) => {
    res.type(metrics.registry.contentType).send(await metrics.registry.metrics());
  });

  app.post(
    deps.path,
    express.raw({ type: () => true, limit: deps.maxBodyBytes }),
    async (req: Request, res: Response) => {
      const raw = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
      // Bounded here, so that logs, the spool and the dedupe identity all see the same bounded id.
      const batchHeader = headerValue(req, BATCH_HEADER);
      const batchId = batchHeader === null ? null : boundedId(batchHeader);
      // Fields go on each line rather than into a child logger: a child per delivery costs more than the lines.

      const signature = headerValue(req, SIGNATURE_HEADER);
      const verdict = await checkSignature(deps.secrets, raw, signature, deps.requireSignature, (error) =>
        logger.warn({ err: String(error) }, 'could not read the webhook secret from the provider'),
      );
      // No secret known yet (the provider has not answered): the delivery is kept and verified later.
      const pendingSignature = !verdict.ok && verdict.reason === 'pending' && signature ? signature : undefined;
      if (!verdict.ok && pendingSignature === undefined) {
        metrics.signatureFailures.inc({ reason: verdict.reason });
        metrics.deliveries.inc({ outcome: 'rejected_signature', event_type: 'unknown' });
        logger.warn(
          { batchId, outcome: 'signature_rejected', reason: verdict.reason, bytes: raw.length },
          'delivery refused: signature',
        );
        res
          .status(401)
          .json({ error: 'invalid_signature', message: 'X-HMAC-SHA256-Signature is missing or does not match' });
        return;
      }
      if (verdict.ok && !verdict.signed && !warnedUnsigned) {
        warnedUnsigned = true;
        logger.warn(
          { batchId },
          'WEBHOOK_ALLOW_UNSIGNED=true and no webhook secret known: accepting unsigned deliveries',
        );
      }

      let body: unknown;
      try {
        body = JSON.parse(raw.toString('utf8'));
      } catch {
        metrics.deliveries.inc({ outcome: 'malformed_json', event_type: 'unknown' });
        logger.warn({ batchId, outcome: 'malformed_json', bytes: raw.length }, 'delivery refused: body is not JSON');
        res.status(400).json({ error: 'malformed_json', message: 'The body is not valid JSON' });
        return;
      }

      const { outcome, routed } = await deps.recorder.record({
        raw,
        body,
        batchId,
        receivedAt: new Date().toISOString(),
        pendingSignature,
      });
      metrics.deliveries.inc({ outcome, event_type: eventTypeLabel(routed.eventType) });
      const fields = { batchId, eventType: routed.eventType, parse: routed.parse, outcome };
      if (outcome === 'unavailable') {
        logger.error(
          fields,
          'Temporal did not take the delivery and the spool is full or cannot be written: delivery not accepted',
        );
        res
          .status(503)
          .json({ error: 'unavailable', message: 'The delivery could not be recorded; it was not accepted' });
        return;
      }
      logger.info({ ...fields, targets: routed.targets.length }, 'delivery accepted');
      res.status(202).type('application/json').send(ACCEPTED_BODY);
    },
  );

  // Body-parser failures (size, encoding) and anything unexpected: answer, never crash.
  app.use((error: Error & { status?: number; type?: string }, req: Request, res: Response, _next: NextFunction) => {
    const status = error.status && error.status >= 400 && error.status < 500 ? error.status : 500;
    if (status === 413) metrics.deliveries.inc({ outcome: 'too_large', event_type: 'unknown' });
    logger.warn({ outcome: 'rejected', status, type: error.type, path: req.path }, error.message);
    res.status(status).json({
      error: error.type ?? 'bad_request',
      message: status === 413 ? `Body larger than ${deps.maxBodyBytes} bytes` : 'The request could not be read',
    });
  });

  return app;
}

function headerValue(req: Request, name: string): string | null {
  const value = req.headers[name];
  return typeof value === 'string' ? value : null;
}
