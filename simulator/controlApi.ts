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
}

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

  return router;
}
