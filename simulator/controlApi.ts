/**
 * Control calls, under `/_control`: not part of the provider's API. They play the applicant and
 * the operator of the provider, and let tests inspect what the simulator did.
 */
import express, { type Router } from 'express';
import { z } from 'zod';
import { idvCompletedVerificationStatusSchema } from '../provider';
import { sendError, sendValidationError } from './apiErrors';
import { identityVerificationCompletedData, identityVerificationExpiredData } from './identityVerificationEvents';
import { addPerson, type SimulatorStore } from './store';
import type { WebhookDispatcher } from './webhookDispatcher';

export const CONTROL_PREFIX = '/_control';

export interface ControlApiOptions {
  baseUrl: () => string;
  now: () => Date;
  dispatcher: WebhookDispatcher;
  revokeAllTokens: () => void;
  /** The application's live client secrets (§5.5: at most two). */
  clientSecrets: string[];
}

const MAX_CLIENT_SECRETS = 2;
const faultSchema = z.object({
  method: z.enum(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']),
  path: z.string().startsWith('/'),
  status: z.number().int().min(400).max(599),
  retry_after: z.string().optional(),
  times: z.number().int().positive().default(1),
});
const secretBodySchema = z.object({ secret: z.string().min(1) });

const personBodySchema = z.object({ first_name: z.string().min(1).optional(), last_name: z.string().min(1).optional() });
const completeBodySchema = z.object({ verification_status: idvCompletedVerificationStatusSchema });

export function createControlApi(store: SimulatorStore, options: ControlApiOptions): Router {
  const router = express.Router();
  router.use(express.json({ limit: '64kb' }));

  router.get('/persons', (_req, res) => {
    res.json([...store.persons.values()]);
  });

  router.post('/persons', (req, res) => {
    const body = personBodySchema.safeParse(req.body ?? {});
    if (!body.success) return sendValidationError(res, body.error);
    res.status(201).json(addPerson(store, body.data));
  });

  /** The applicant finishes the check; the provider decides the verification status. */
  router.post('/identity-verifications/:requestId/complete', async (req, res) => {
    const request = store.identityVerifications.get(req.params.requestId);
    if (!request) return sendError(res, 404, 'not_found', `No identity verification request ${req.params.requestId}`);
    if (request.status !== 'Pending') return sendError(res, 409, 'conflict', `The request is ${request.status} already`);
    const body = completeBodySchema.safeParse(req.body ?? {});
    if (!body.success) return sendValidationError(res, body.error);
    request.status = 'Completed';
    request.verification_status = body.data.verification_status;
    request.date_completed = options.now().toISOString();
    const person = store.persons.get(request.person_id)!;
    const data = identityVerificationCompletedData(options.baseUrl(), request, person);
    const deliveries = await options.dispatcher.emit('IdentityVerification.Completed', { 'IdentityVerification.Completed': data });
    res.json({ request_id: request.request_id, deliveries });
  });

  /** The applicant never opens the link and it expires. */
  router.post('/identity-verifications/:requestId/expire', async (req, res) => {
    const request = store.identityVerifications.get(req.params.requestId);
    if (!request) return sendError(res, 404, 'not_found', `No identity verification request ${req.params.requestId}`);
    if (request.status !== 'Pending') return sendError(res, 409, 'conflict', `The request is ${request.status} already`);
    request.status = 'Expired';
    request.verification_status = 'NotCompleted';
    const person = store.persons.get(request.person_id)!;
    const data = identityVerificationExpiredData(options.baseUrl(), request, person);
    const deliveries = await options.dispatcher.emit('IdentityVerification.Expired', { 'IdentityVerification.Expired': data });
    res.json({ request_id: request.request_id, deliveries });
  });

  router.get('/deliveries', (_req, res) => {
    res.json(store.deliveries);
  });

  router.get('/stats', (_req, res) => {
    res.json(store.stats);
  });

  router.post('/tokens/revoke', (_req, res) => {
    options.revokeAllTokens();
    res.status(204).end();
  });

  /** The next `times` calls to `method path` (a routes-table pattern) answer `status`. */
  router.post('/faults', (req, res) => {
    const body = faultSchema.safeParse(req.body ?? {});
    if (!body.success) return sendValidationError(res, body.error);
    store.faults.push(body.data);
    res.status(201).json(body.data);
  });

  router.get('/requests', (_req, res) => {
    res.json(store.requests);
  });

  /** A new client secret for the application (the dashboard's New Secret, §5.2). */
  router.post('/client-secrets', (req, res) => {
    const body = secretBodySchema.safeParse(req.body ?? {});
    if (!body.success) return sendValidationError(res, body.error);
    if (options.clientSecrets.length >= MAX_CLIENT_SECRETS) return sendError(res, 409, 'conflict', 'An application holds at most two secrets; revoke one first');
    options.clientSecrets.push(body.data.secret);
    res.status(201).json({ secrets: options.clientSecrets.length });
  });

  router.post('/client-secrets/revoke', (req, res) => {
    const body = secretBodySchema.safeParse(req.body ?? {});
    if (!body.success) return sendValidationError(res, body.error);
    const index = options.clientSecrets.indexOf(body.data.secret);
    if (index < 0) return sendError(res, 404, 'not_found', 'No such client secret');
    options.clientSecrets.splice(index, 1);
    res.json({ secrets: options.clientSecrets.length });
  });

  return router;
}
