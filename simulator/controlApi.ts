/**
 * Control calls, under `/_control`: not part of the provider's API. They play the applicant and
 * the operator of the provider, and let tests inspect what the simulator did.
 */
import express, { type Request, type RequestHandler, type Response, type Router } from 'express';
import { z } from 'zod';
import { idvCompletedVerificationStatusSchema } from '../provider';
import { sendError, sendValidationError } from './apiErrors';
import { identityVerificationCompletedData, identityVerificationExpiredData } from './identityVerificationEvents';
import { connectedAccount, generateAccount } from './accountGenerator';
import { faultRatesSchema, type FaultInjector } from './faultRates';
import { idempotencyModeSchema, type IdempotencySetting } from './idempotency';
import { ledger, ledgerQuerySchema } from './ledger';
import type { Jobs } from './jobs';
import { addCase, addCompany, addPerson, type SimulatorStore } from './store';
import { CLIENT_SECRET_LIFETIME_MS, type ClientSecret } from './tokenIssuer';
import type { WebhookDispatcher } from './webhookDispatcher';

export const CONTROL_PREFIX = '/_control';

export interface ControlApiOptions {
  baseUrl: () => string;
  now: () => Date;
  dispatcher: WebhookDispatcher;
  revokeAllTokens: () => void;
  /** The application's live client secrets (§5.5: at most two). */
  clientSecrets: ClientSecret[];
  faults: FaultInjector;
  jobs: Jobs;
  /** Whether `Idempotency-Key` is honoured (idempotency.ts). */
  idempotencyKeys: IdempotencySetting;
}

const MAX_CLIENT_SECRETS = 2;
/**
 * A scripted fault answers `status`, or, with `response_lost: true`, is processed and loses its
 * answer (`creation_answer_lost: true`: only when it created something); `latency_ms` holds the
 * answer back (alone: the call is processed at once and answered late).
 */
const faultSchema = z
  .object({
    method: z.enum(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']),
    path: z.string().startsWith('/'),
    status: z.number().int().min(400).max(599).optional(),
    retry_after: z.string().optional(),
    response_lost: z.boolean().optional(),
    creation_answer_lost: z.boolean().optional(),
    latency_ms: z.number().int().min(1).max(60_000).optional(),
    times: z.number().int().positive().default(1),
  })
  .refine(
    (f) => {
      const lost = f.response_lost === true || f.creation_answer_lost === true;
      return !(lost && f.status !== undefined) && (lost || f.status !== undefined || f.latency_ms !== undefined);
    },
    {
      error:
        'give status (an error answer), response_lost: true (the answer is lost), creation_answer_lost: true ' +
        '(the answer of a call that created something is lost) or latency_ms (the answer is late); ' +
        'status and a lost answer not both',
      path: ['status'],
    },
  );
const secretBodySchema = z.object({ secret: z.string().min(1), expires_at: z.iso.datetime().optional() });
const companyBodySchema = z.object({
  company_name: z.string().min(1),
  company_number: z.string().min(1).nullable().default(null),
  country_code: z.string().length(2).nullable().default(null),
  /** More than one makes the company ambiguous (TooManyResults). */
  registry_copies: z.number().int().min(0).max(5).default(1),
});
const caseBodySchema = z.object({
  entity_type: z.enum(['Case', 'case']).optional(),
  income_employer_outcome: z.enum(['Complete', 'Failed']).optional(),
});
const openBankingOutcomeSchema = z.object({
  status: z.enum(['Connected', 'Rejected']),
  accounts: z.number().int().min(1).max(5).default(1),
  /** Months of history per account, with `transactions_per_month` each; unset: the usual six transactions. */
  months: z.number().int().min(1).max(36).optional(),
  transactions_per_month: z.number().int().min(1).max(1_000).optional(),
});

const personBodySchema = z.object({
  first_name: z.string().min(1).optional(),
  last_name: z.string().min(1).optional(),
});
const completeBodySchema = z.object({ verification_status: idvCompletedVerificationStatusSchema });

/** One line of `GET /_control`. */
export interface ControlCall {
  method: string;
  path: string;
  description: string;
}

/** Registers a control call and its line in the catalogue together, so the list cannot drift. */
function documented(router: Router, catalogue: ControlCall[]) {
  return (method: 'get' | 'post' | 'put', path: string, description: string, handler: RequestHandler): void => {
    catalogue.push({ method: method.toUpperCase(), path: `${CONTROL_PREFIX}${path === '/' ? '' : path}`, description });
    router[method](path, handler);
  };
}

export function createControlApi(store: SimulatorStore, options: ControlApiOptions): Router {
  const router = express.Router();
  router.use(express.json({ limit: '64kb' }));
  const catalogue: ControlCall[] = [];
  const on = documented(router, catalogue);

  on('get', '/', 'This list of control calls', (_req, res) => {
    res.json(catalogue);
  });

  on(
    'get',
    '/ledger',
    'Everything created through the API, with idempotency keys; ?case_id=, ?company_id=, ?person_id=',
    (req, res) => {
      const query = ledgerQuerySchema.safeParse(req.query);
      if (!query.success) return sendValidationError(res, query.error);
      res.json(ledger(store, query.data));
    },
  );

  on(
    'put',
    '/idempotency-keys',
    'Whether Idempotency-Key is { mode: "ignored" } (the default: the spec has none) or "honoured"',
    (req, res) => {
      const body = z.object({ mode: idempotencyModeSchema }).safeParse(req.body ?? {});
      if (!body.success) return sendValidationError(res, body.error);
      options.idempotencyKeys.mode = body.data.mode;
      res.json({ mode: options.idempotencyKeys.mode });
    },
  );

  on('get', '/persons', 'People, seeded and added', (_req, res) => {
    res.json([...store.persons.values()]);
  });

  on('post', '/persons', 'Adds a person { first_name?, last_name? }', (req, res) => {
    const body = personBodySchema.safeParse(req.body ?? {});
    if (!body.success) return sendValidationError(res, body.error);
    res.status(201).json(addPerson(store, body.data));
  });

  /** Settles a pending IDV request and sends its event: the applicant's side of §6.5. */
  async function settleIdentityVerification(
    req: Request,
    res: Response,
    outcome: 'complete' | 'expire',
  ): Promise<void> {
    const requestId = req.params.requestId as string;
    const request = store.identityVerifications.get(requestId);
    if (!request) return sendError(res, 404, 'not_found', `No identity verification request ${requestId}`);
    if (request.status !== 'Pending')
      return sendError(res, 409, 'conflict', `The request is ${request.status} already`);
    const person = store.persons.get(request.person_id)!;
    let eventType: string;
    let data: Record<string, unknown>;
    if (outcome === 'complete') {
      const body = completeBodySchema.safeParse(req.body ?? {});
      if (!body.success) return sendValidationError(res, body.error);
      Object.assign(request, {
        status: 'Completed',
        verification_status: body.data.verification_status,
        date_completed: options.now().toISOString(),
      });
      eventType = 'IdentityVerification.Completed';
      data = identityVerificationCompletedData(options.baseUrl(), request, person);
    } else {
      Object.assign(request, { status: 'Expired', verification_status: 'NotCompleted' });
      eventType = 'IdentityVerification.Expired';
      data = identityVerificationExpiredData(options.baseUrl(), request, person);
    }
    const deliveries = await options.dispatcher.emit(eventType, { [eventType]: data });
    res.json({ request_id: request.request_id, deliveries });
  }

  /** The applicant finishes the check; the provider decides the verification status. */
  on(
    'post',
    '/identity-verifications/:requestId/complete',
    'The applicant completes an IDV request { verification_status }; sends IdentityVerification.Completed',
    (req, res) => settleIdentityVerification(req, res, 'complete'),
  );
  /**
   * The provider revises a completed check (a manual review, say) and sends a second
   * IdentityVerification.Completed for the same request: the result endpoint then answers the new one.
   */
  on(
    'post',
    '/identity-verifications/:requestId/complete-again',
    'The provider sends a second result for a completed IDV request { verification_status }; sends ' +
      'IdentityVerification.Completed again',
    async (req, res) => {
      const requestId = req.params.requestId as string;
      const request = store.identityVerifications.get(requestId);
      if (!request) return sendError(res, 404, 'not_found', `No identity verification request ${requestId}`);
      if (request.status !== 'Completed')
        return sendError(res, 409, 'conflict', `The request is ${request.status}, not Completed`);
      const body = completeBodySchema.safeParse(req.body ?? {});
      if (!body.success) return sendValidationError(res, body.error);
      Object.assign(request, {
        verification_status: body.data.verification_status,
        date_completed: options.now().toISOString(),
      });
      const person = store.persons.get(request.person_id)!;
      const data = identityVerificationCompletedData(options.baseUrl(), request, person);
      const deliveries = await options.dispatcher.emit('IdentityVerification.Completed', {
        'IdentityVerification.Completed': data,
      });
      res.json({ request_id: request.request_id, deliveries });
    },
  );
  /** The applicant never opens the link and it expires. */
  on(
    'post',
    '/identity-verifications/:requestId/expire',
    'An IDV request expires; sends IdentityVerification.Expired',
    (req, res) => settleIdentityVerification(req, res, 'expire'),
  );

  on('get', '/companies', 'Companies, seeded and added', (_req, res) => {
    res.json([...store.companies.values()]);
  });

  on(
    'post',
    '/companies',
    'Adds a company { company_name, company_number?, country_code?, registry_copies? }',
    (req, res) => {
      const body = companyBodySchema.safeParse(req.body ?? {});
      if (!body.success) return sendValidationError(res, body.error);
      const { registry_copies, ...company } = body.data;
      res.status(201).json(addCompany(store, company, registry_copies));
    },
  );

  on('get', '/cases', 'Cases, seeded and added', (_req, res) => {
    res.json([...store.cases.values()]);
  });

  on('post', '/cases', 'Adds a case { entity_type?, income_employer_outcome? }', (req, res) => {
    const body = caseBodySchema.safeParse(req.body ?? {});
    if (!body.success) return sendValidationError(res, body.error);
    res.status(201).json(addCase(store, body.data));
  });

  /** The applicant completes (Connected) or refuses (Rejected) an open banking connection. */
  on(
    'post',
    '/open-banking-connections/:connectionId/complete',
    'The applicant completes an open banking connection { status: ' +
      'Connected|Rejected, accounts?, months?, transactions_per_month? }',
    async (req, res) => {
      const connection = store.openBankingConnections.get(req.params.connectionId as string);
      if (!connection) return sendError(res, 404, 'not_found', `No open banking connection ${req.params.connectionId}`);
      if (connection.status !== 'Pending')
        return sendError(res, 409, 'conflict', `The connection is ${connection.status} already`);
      const body = openBankingOutcomeSchema.safeParse(req.body ?? {});
      if (!body.success) return sendValidationError(res, body.error);
      connection.status = body.data.status;
      const connected = body.data.status === 'Connected';
      const { months, transactions_per_month: perMonth } = body.data;
      const volume = months || perMonth ? { months: months ?? 1, transactionsPerMonth: perMonth ?? 6 } : undefined;
      const accounts = connected
        ? Array.from({ length: body.data.accounts }, () =>
            connectedAccount(options.baseUrl(), generateAccount(store, connection.entity_id, volume)),
          )
        : [];
      const common = {
        bank_connection_id: connection.bank_connection_id,
        entity_type: connection.entity_type,
        entity_id: connection.entity_id,
        connected_accounts: accounts,
      };
      const deliveries = await options.dispatcher.emit('OpenBankingProcessing.Completed', {
        'OpenBankingProcessing.Completed': { ...common, status: body.data.status },
        'BankingProcessing.Completed': { ...common, status: connected ? 'Complete' : 'Rejected' },
      });
      res.json({ bank_connection_id: connection.bank_connection_id, deliveries });
    },
  );

  on('get', '/fault-rates', 'The seeded fault rates in force', (_req, res) => {
    res.json(options.faults.rates);
  });

  on(
    'put',
    '/fault-rates',
    'Sets the fault rates (simulator/faultRates.ts), e.g. { response_lost_rate, response_lost_routes }',
    (req, res) => {
      const body = faultRatesSchema.safeParse(req.body ?? {});
      if (!body.success) return sendValidationError(res, body.error);
      options.faults.set(body.data);
      res.json(options.faults.rates);
    },
  );

  /** Waits until processing, insights and deliveries in flight have all finished. */
  on(
    'post',
    '/settle',
    'Waits until processing, insights and deliveries in flight have finished',
    async (_req, res) => {
      await options.jobs.settled();
      await options.dispatcher.idle();
      res.json({ deliveries: store.deliveries.length });
    },
  );

  on('get', '/deliveries', 'The webhook delivery log', (_req, res) => {
    res.json(store.deliveries);
  });

  on('get', '/stats', 'Token requests, tokens issued, API calls', (_req, res) => {
    res.json(store.stats);
  });

  on('post', '/tokens/revoke', 'Revokes every access token issued', (_req, res) => {
    options.revokeAllTokens();
    res.status(204).end();
  });

  /**
   * The next `times` calls to `method path` (a routes-table pattern) answer `status`, lose their
   * answer, or answer late.
   */
  on(
    'post',
    '/faults',
    'Scripts a fault { method, path, status | response_lost: true, latency_ms?, retry_after?, times? }',
    (req, res) => {
      const body = faultSchema.safeParse(req.body ?? {});
      if (!body.success) return sendValidationError(res, body.error);
      store.faults.push(body.data);
      res.status(201).json(body.data);
    },
  );

  on('get', '/requests', 'The API request log; a lost answer is marked response_lost: true', (_req, res) => {
    res.json(store.requests);
  });

  /** A new client secret for the application (the dashboard's New Secret, §5.2). */
  on('post', '/client-secrets', 'Adds a client secret { secret, expires_at? } (at most two)', (req, res) => {
    const body = secretBodySchema.safeParse(req.body ?? {});
    if (!body.success) return sendValidationError(res, body.error);
    if (options.clientSecrets.length >= MAX_CLIENT_SECRETS)
      return sendError(res, 409, 'conflict', 'An application holds at most two secrets; revoke one first');
    const expiresAt = body.data.expires_at ? Date.parse(body.data.expires_at) : Date.now() + CLIENT_SECRET_LIFETIME_MS;
    options.clientSecrets.push({ value: body.data.secret, expiresAt });
    res.status(201).json({ secrets: options.clientSecrets.length });
  });

  on('post', '/client-secrets/revoke', 'Revokes a client secret { secret }', (req, res) => {
    const body = secretBodySchema.safeParse(req.body ?? {});
    if (!body.success) return sendValidationError(res, body.error);
    const index = options.clientSecrets.findIndex((s) => s.value === body.data.secret);
    if (index < 0) return sendError(res, 404, 'not_found', 'No such client secret');
    options.clientSecrets.splice(index, 1);
    res.json({ secrets: options.clientSecrets.length });
  });

  return router;
}
