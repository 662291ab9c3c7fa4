/** Webhook management (spec §2.1, §2.2, §4.6): webhooks, event types, the one global secret. */
import { randomBytes } from 'node:crypto';
import express, { type Response, type Router } from 'express';
import { routes } from '../activities/routes';
import {
  eventTypesTree,
  isKnownEventType,
  webhookConfigurationSchemaFor,
  webhookUpdateSchemaFor,
  type WebhookRecord,
} from '../provider';
import { sendError, sendValidationError } from './apiErrors';
import type { SimulatorStore } from './store';

export interface WebhookApiOptions {
  /** Local development only: accept `http://` callbacks to loopback addresses. */
  allowInsecureLoopbackCallbacks: boolean;
  now: () => Date;
}

export function createWebhookApi(store: SimulatorStore, options: WebhookApiOptions): Router {
  const router = express.Router();
  const createSchema = webhookConfigurationSchemaFor(options.allowInsecureLoopbackCallbacks);
  const updateSchema = webhookUpdateSchemaFor(options.allowInsecureLoopbackCallbacks);

  // Registered before `/webhooks/:webhookId`-style routes so the literal paths win.
  router.get(routes.eventTypes.pattern, (_req, res) => {
    res.json(eventTypesTree());
  });

  router.post(routes.createWebhookSecret.pattern, (_req, res) => {
    if (store.webhookSecret)
      return sendError(res, 409, 'conflict', 'A webhook secret exists already; rotate it with PATCH');
    store.webhookSecret = { secret: newSecret(), date_updated: options.now().toISOString() };
    res.status(201).json(store.webhookSecret);
  });

  router.get(routes.readWebhookSecret.pattern, (_req, res) => {
    if (!store.webhookSecret) return sendError(res, 404, 'not_found', 'No webhook secret exists');
    res.json(store.webhookSecret);
  });

  router.patch(routes.rotateWebhookSecret.pattern, (_req, res) => {
    if (!store.webhookSecret) return sendError(res, 404, 'not_found', 'No webhook secret exists; create one with POST');
    store.webhookSecret = { secret: newSecret(), date_updated: options.now().toISOString() };
    res.json(store.webhookSecret);
  });

  router.delete(routes.deleteWebhookSecret.pattern, (_req, res) => {
    store.webhookSecret = null;
    res.status(204).end();
  });

  router.post(routes.createWebhook.pattern, express.json({ limit: '64kb' }), (req, res) => {
    const body = createSchema.safeParse(req.body);
    if (!body.success) return sendValidationError(res, body.error);
    if (refuseUnknownEventTypes(res, body.data.event_types)) return;
    const record: WebhookRecord = {
      webhook_id: store.random.guid(),
      webhook_name: body.data.webhook_name,
      webhook_callback_url: body.data.webhook_callback_url,
      event_types: body.data.event_types,
      external_ref: body.data.external_ref ?? null,
    };
    store.webhooks.set(record.webhook_id, record);
    res.status(201).json(record);
  });

  router.put(routes.updateWebhook.pattern, express.json({ limit: '64kb' }), (req, res) => {
    const existing = store.webhooks.get(req.params.webhookId as string);
    if (!existing) return sendError(res, 404, 'not_found', `No webhook ${req.params.webhookId}`);
    const body = updateSchema.safeParse(req.body);
    if (!body.success) return sendValidationError(res, body.error);
    if (refuseUnknownEventTypes(res, body.data.event_types ?? [])) return;
    const updated: WebhookRecord = { ...existing, ...stripUndefined(body.data) };
    store.webhooks.set(updated.webhook_id, updated);
    res.json(updated);
  });

  return router;
}

/**
 * §2.1: a webhook's event types "are taken from the event list in section 6". The provider checks
 * a configuration against the list it serves today (GET /webhooks/event-types); the growth of that
 * list (§6.1.5, §9) is about what receivers must accept in deliveries, so the project's own
 * contract schema (provider/webhookConfiguration.ts) stays open and only the simulator refuses.
 * Answers 422 naming the unknown types; true when it did.
 */
function refuseUnknownEventTypes(res: Response, eventTypes: string[]): boolean {
  const unknown = eventTypes.filter((t) => !isKnownEventType(t));
  if (unknown.length === 0) return false;
  sendError(
    res,
    422,
    'unknown_event_type',
    `event_types: unknown event type ${unknown.join(', ')}; GET /webhooks/event-types lists the known ones`,
    {
      unknown_event_types: unknown,
    },
  );
  return true;
}

function newSecret(): string {
  return randomBytes(32).toString('base64url');
}

function stripUndefined<T extends Record<string, unknown>>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
