/**
 * The `Idempotency-Key` request header on every creating call (docs/provider-assumptions.md A37).
 *
 * The provider's interface gives no idempotency, so by default (`ignored`) the header is only
 * remembered on what a call creates (the ledger shows it): a repeat creates again, as a provider
 * without the mechanism would. `honoured` (`SIMULATOR_IDEMPOTENCY_KEYS=honoured`, or
 * `PUT /_control/idempotency-keys`) keeps the mechanism for comparison: a repeat of a key on the
 * same route (method and routes-table pattern) by the same client is answered with the first
 * answer again, byte for byte, without running the handler: no new resource, job or webhook. The
 * same key with a different request (another path or body) is `422 idempotency_key_reuse`.
 * Implemented once here, in front of the handlers, not per route.
 */
import { isDeepStrictEqual } from 'node:util';
import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import { z } from 'zod';
import { routes, type Route } from '../activities/routes';
import { sendError } from './apiErrors';
import { matchesPattern, routeName } from './routeMatch';
import type { SimulatorStore } from './store';

export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';
/** Set on an answer that repeats a stored one, so a test (or a curious operator) can tell. */
export const IDEMPOTENT_REPLAYED_HEADER = 'Idempotent-Replayed';
const MAX_KEY_LENGTH = 255;

export const idempotencyModeSchema = z.enum(['ignored', 'honoured']);
export type IdempotencyMode = z.infer<typeof idempotencyModeSchema>;

/** The mode in force; a control call may change it while the simulator runs. */
export interface IdempotencySetting {
  mode: IdempotencyMode;
}

/** The creating calls, with the body limit of their own parser (bodies are parsed here, once). */
export const creatingRoutes: { route: Route; bodyLimit: string }[] = [
  { route: routes.requestCreditReport, bodyLimit: '64kb' },
  { route: routes.resolveCreditReportPicklist, bodyLimit: '64kb' },
  { route: routes.createIdentityVerification, bodyLimit: '64kb' },
  { route: routes.uploadDocument, bodyLimit: '10mb' },
  { route: routes.createOpenBankingConnection, bodyLimit: '64kb' },
  { route: routes.requestAffordabilityInsight, bodyLimit: '64kb' },
  { route: routes.requestIncomeEmployer, bodyLimit: '64kb' },
  { route: routes.createWebhook, bodyLimit: '64kb' },
  { route: routes.createWebhookSecret, bodyLimit: '64kb' },
];

/** What a first call answered: status, content type and the exact bytes. */
export interface StoredAnswer {
  status: number;
  contentType: string | undefined;
  body: Buffer;
}

export interface KeyRecord {
  /** The request the key was first used for: its path and parsed body. */
  path: string;
  body: unknown;
  /** Absent while the first call is still being handled. */
  answer?: StoredAnswer;
}

/** The key of the call being handled, for handlers to store on what they create. */
export function idempotencyKeyOf(res: Response): string | null {
  const key: unknown = res.locals.idempotencyKey;
  return typeof key === 'string' ? key : null;
}

/** Whether the call's key is honoured: a handler that finds what the key made answers it again. */
export function idempotencyHonoured(res: Response): boolean {
  return res.locals.idempotencyHonoured === true;
}

/** Whether the call is one of the creating calls. */
export function isCreatingCall(method: string, path: string): boolean {
  return creatingRoutes.some(({ route }) => route.method === method && matchesPattern(route.pattern, path));
}

/** Remembers the key a resource was created with (the ledger shows it). */
export function recordCreation(
  store: SimulatorStore,
  res: Response,
  resourceId: string,
  fallbackKey: string | null = null,
): string | null {
  const key = idempotencyKeyOf(res) ?? fallbackKey;
  if (key !== null) store.createdWithKey.set(resourceId, key);
  return key;
}

/**
 * The header value: a bare token, or a structured-field string in double quotes as the IETF
 * draft "The Idempotency-Key HTTP Header Field" writes it.
 */
function parseKey(raw: string): string {
  const trimmed = raw.trim();
  return trimmed.length >= 2 && trimmed.startsWith('"') && trimmed.endsWith('"') ? trimmed.slice(1, -1) : trimmed;
}

/**
 * Answers worth repeating: the handler ran. A 400 (the body failed validation, nothing began) and
 * a 5xx (the simulator failed) are not kept, so a corrected or later retry with the key runs.
 */
const keepsAnswer = (status: number) => status < 500 && status !== 400;

/** `records` is the store's, so a simulator restarted from its saved state keeps its keys' answers. */
export function idempotency(
  records: Map<string, KeyRecord>,
  setting: IdempotencySetting,
  onAbandoned: () => void = () => {},
): RequestHandler {
  return (req: Request, res: Response, next: NextFunction): void => {
    res.locals.idempotencyHonoured = setting.mode === 'honoured';
    const raw = req.get(IDEMPOTENCY_KEY_HEADER);
    const creating = creatingRoutes.find(
      ({ route }) => route.method === req.method && matchesPattern(route.pattern, req.path),
    );
    if (raw === undefined || !creating) return next();
    const key = parseKey(raw);
    if (key.length === 0 || key.length > MAX_KEY_LENGTH) {
      return sendError(
        res,
        400,
        'validation_error',
        `${IDEMPOTENCY_KEY_HEADER} must be 1 to ${MAX_KEY_LENGTH} characters`,
      );
    }
    express.json({ limit: creating.bodyLimit })(req, res, (error?: unknown) => {
      // The client went away before its body was read in full (a worker killed while it sent the
      // call): nothing was received, so nothing is run or remembered. Recording it would hold an
      // empty body against the key, and the client's retry would be refused as a different request.
      if (req.destroyed) return onAbandoned();
      if (error) return next(error);
      if (setting.mode === 'ignored') {
        // Kept on what the call creates (the ledger shows it), never used to answer a repeat.
        res.locals.idempotencyKey = key;
        return next();
      }
      const scope = JSON.stringify([res.locals.clientId, routeName(creating.route), key]);
      const record = records.get(scope);
      if (record) return answerRepeat(req, res, key, record);
      records.set(
        scope,
        handleFirst(req, res, key, () => records.delete(scope)),
      );
      next();
    });
  };
}

/** The record of a first call; its answer is kept when the handler ends it, or the record forgotten. */
function handleFirst(req: Request, res: Response, key: string, forget: () => void): KeyRecord {
  const record: KeyRecord = { path: req.path, body: req.body };
  res.locals.idempotencyKey = key;
  captureAnswer(res, (answer) => {
    if (keepsAnswer(answer.status)) record.answer = answer;
    else forget();
  });
  return record;
}

function answerRepeat(req: Request, res: Response, key: string, record: KeyRecord): void {
  if (record.path !== req.path || !isDeepStrictEqual(record.body, req.body)) {
    return sendError(
      res,
      422,
      'idempotency_key_reuse',
      `${IDEMPOTENCY_KEY_HEADER} ${key} was used for a different request to ` +
        `${req.method} ${record.path}; use a new key for a new request`,
    );
  }
  if (!record.answer) {
    res.setHeader('Retry-After', '1');
    return sendError(
      res,
      409,
      'idempotency_key_in_use',
      `The first request with ${IDEMPOTENCY_KEY_HEADER} ${key} is still being handled; retry shortly`,
    );
  }
  const { status, contentType, body } = record.answer;
  if (contentType) res.setHeader('Content-Type', contentType);
  res.setHeader(IDEMPOTENT_REPLAYED_HEADER, 'true');
  res.status(status).end(body);
}

/**
 * Hands the answer's status and bytes to `done` as the handler ends it. Whatever `res.end` was
 * before (possibly the response-lost fault's cut) still runs, so a lost answer is kept too.
 */
function captureAnswer(res: Response, done: (answer: StoredAnswer) => void): void {
  const chunks: Buffer[] = [];
  const toBuffer = (chunk: unknown, encoding?: unknown) =>
    Buffer.isBuffer(chunk)
      ? chunk
      : Buffer.from(String(chunk), typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8');
  const write = res.write.bind(res) as (...args: unknown[]) => boolean;
  const end = res.end.bind(res) as (...args: unknown[]) => Response;
  res.write = ((chunk: unknown, ...rest: unknown[]) => {
    chunks.push(toBuffer(chunk, rest[0]));
    return write(chunk, ...rest);
  }) as Response['write'];
  res.end = ((chunk?: unknown, ...rest: unknown[]) => {
    if (chunk !== undefined && typeof chunk !== 'function') chunks.push(toBuffer(chunk, rest[0]));
    const contentType = res.getHeader('Content-Type');
    done({
      status: res.statusCode,
      contentType: contentType === undefined ? undefined : String(contentType),
      body: Buffer.concat(chunks),
    });
    return end(chunk, ...rest);
  }) as Response['end'];
}
