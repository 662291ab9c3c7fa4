/** Identity verification (spec §4.4, §4.5; creation assumed): requests per person, list, result. */
import express, { type Router } from 'express';
import { routes, identityVerificationListQuery } from '../activities/routes';
import { createIdentityVerificationBodySchema, idvVerificationStatusSchema } from '../provider';
import { sendError, sendValidationError } from './apiErrors';
import { idempotencyHonoured, idempotencyKeyOf, recordCreation } from './idempotency';
import type { SimulatorStore, StoredIdentityVerification } from './store';

/** What the API returns: the stored record without the simulator's bookkeeping. */
export function publicRequest(r: StoredIdentityVerification) {
  const { idempotency_key: _key, ...request } = r;
  return request;
}

export function identityVerificationResult(r: StoredIdentityVerification) {
  const outcome = r.verification_status === 'Approved' ? 'pass' : r.verification_status === null ? 'pending' : 'fail';
  return {
    ...publicRequest(r),
    checks: [
      { check: 'document_authenticity', outcome },
      { check: 'facial_similarity', outcome },
    ],
  };
}

export function createIdentityVerificationApi(store: SimulatorStore, now: () => Date): Router {
  const router = express.Router();

  router.post(routes.createIdentityVerification.pattern, express.json({ limit: '64kb' }), (req, res) => {
    const personId = req.params.personId as string;
    if (!store.persons.has(personId)) return sendError(res, 404, 'not_found', `No person ${personId}`);
    const body = createIdentityVerificationBodySchema.safeParse(req.body ?? {});
    if (!body.success) return sendValidationError(res, body.error);
    // The Idempotency-Key header wins; the older body field is still taken without it. Either finds
    // the request the key made only while keys are honoured (idempotency.ts).
    const key = idempotencyKeyOf(res) ?? body.data.idempotency_key ?? null;
    const existing =
      key && idempotencyHonoured(res)
        ? [...store.identityVerifications.values()].find((r) => r.person_id === personId && r.idempotency_key === key)
        : undefined;
    if (existing) return void res.status(200).json(publicRequest(existing));
    const requestId = store.random.guid();
    const request: StoredIdentityVerification = {
      request_id: requestId,
      person_id: personId,
      status: 'Pending',
      verification_status: null,
      identity_link: `https://idv.simulator.invalid/${requestId}`,
      date_created: now().toISOString(),
      date_completed: null,
      idempotency_key: key,
    };
    store.identityVerifications.set(requestId, request);
    recordCreation(store, res, requestId, key);
    res.status(201).json(publicRequest(request));
  });

  router.get(routes.listIdentityVerifications.pattern, (req, res) => {
    const personId = req.params.personId as string;
    if (!store.persons.has(personId)) return sendError(res, 404, 'not_found', `No person ${personId}`);
    const exclude = req.query[identityVerificationListQuery.excludeIncomplete];
    const filter = req.query[identityVerificationListQuery.verificationStatus];
    if (exclude !== undefined && exclude !== 'true' && exclude !== 'false') {
      return sendError(
        res,
        400,
        'validation_error',
        `${identityVerificationListQuery.excludeIncomplete} must be true or false`,
      );
    }
    let statuses: string[] | undefined;
    if (filter !== undefined) {
      statuses = String(filter)
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);
      const unknown = statuses.filter((s) => !idvVerificationStatusSchema.safeParse(s).success);
      if (unknown.length)
        return sendError(res, 400, 'validation_error', `Unknown verification status: ${unknown.join(', ')}`);
    }
    const list = [...store.identityVerifications.values()]
      .filter((r) => r.person_id === personId)
      .filter((r) => exclude !== 'true' || r.status !== 'Pending')
      .filter((r) => !statuses || (r.verification_status !== null && statuses.includes(r.verification_status)))
      .map(publicRequest);
    res.json(list);
  });

  router.get(routes.identityVerificationResult.pattern, (req, res) => {
    const request = store.identityVerifications.get(req.params.requestId as string);
    if (!request) return sendError(res, 404, 'not_found', `No identity verification request ${req.params.requestId}`);
    res.json(identityVerificationResult(request));
  });

  return router;
}
