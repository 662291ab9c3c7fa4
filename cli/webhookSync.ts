/**
 * `journey webhooks sync`: the provider's webhook configuration, created or updated idempotently.
 * One webhook per callback URL (two URLs, each to its own bridge, give redundant delivery: every
 * event reaches both and the resource workflows apply it once), subscribed to every event type the
 * provider's event-types operation lists, and the one global signing secret, created if missing.
 *
 * The provider has no operation that lists webhooks, so the ids of the webhooks this command made
 * are kept in a small state file (`.data/provider-webhooks.json` by default) and updated in place;
 * a webhook the provider no longer knows (404) is created again.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import type { ProviderClient } from '../activities/providerClient';
import { webhookManagement } from '../activities/webhookManagement';
import type { EventTypeEntry, EventTypeGroup } from '../provider';
import { dataPath } from '../config/projectRoot';

export const defaultWebhookStateFile = dataPath('provider-webhooks.json');

const stateSchema = z.object({ webhooks: z.record(z.string(), z.string()) });
type WebhookState = z.infer<typeof stateSchema>;

export interface WebhookSyncOptions {
  /** One webhook per URL, named `<name prefix> <n>`. */
  callbackUrls: string[];
  namePrefix?: string;
  externalRef?: string;
  stateFile?: string;
  /** Admit http:// loopback callbacks (a simulator in local-development mode). */
  localDevelopment?: boolean;
}

export interface WebhookSyncResult {
  webhooks: { name: string; webhook_id: string; callback_url: string; action: 'created' | 'updated' }[];
  eventTypes: string[];
  secret: { action: 'created' | 'kept'; date_updated: string };
}

/** Every event name of the provider's list, parents and children (§4.6 shape), once each. */
export function eventNames(groups: EventTypeGroup[]): string[] {
  const names = new Set<string>();
  const walk = (entries: EventTypeEntry[]) => {
    for (const entry of entries) {
      names.add(entry.event_name);
      walk(entry.event_types);
    }
  };
  for (const group of groups) walk(group.event_types);
  return [...names];
}

function readState(file: string): WebhookState {
  if (!existsSync(file)) return { webhooks: {} };
  const parsed = stateSchema.safeParse(JSON.parse(readFileSync(file, 'utf8')));
  if (!parsed.success)
    throw new Error(
      `${file} is not a webhook state file; move it away to start again (the webhooks it named stay at the provider)`,
    );
  return parsed.data;
}

function writeState(file: string, state: WebhookState): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(`${file}.tmp`, JSON.stringify(state, null, 2));
  renameSync(`${file}.tmp`, file);
}

export async function syncWebhooks(provider: ProviderClient, options: WebhookSyncOptions): Promise<WebhookSyncResult> {
  const management = webhookManagement(provider, { localDevelopment: options.localDevelopment });
  const file = options.stateFile ?? defaultWebhookStateFile;
  const state = readState(file);
  const eventTypes = eventNames(await management.eventTypes());
  const result: WebhookSyncResult = { webhooks: [], eventTypes, secret: { action: 'kept', date_updated: '' } };
  for (const [index, url] of options.callbackUrls.entries()) {
    const name = `${options.namePrefix ?? 'verification-journeys'} ${index + 1}`.slice(0, 50);
    const desired = {
      webhook_name: name,
      webhook_callback_url: url,
      event_types: eventTypes,
      external_ref: options.externalRef ?? 'verification-journeys',
    };
    const known = state.webhooks[name];
    const updated = known
      ? await management.updateWebhook(known, desired).catch((error: { type?: string }) => {
          if (error.type === 'HTTP_404') return undefined;
          throw error;
        })
      : undefined;
    const record = updated ?? (await management.createWebhook(desired));
    state.webhooks[name] = record.webhook_id;
    writeState(file, state);
    result.webhooks.push({
      name,
      webhook_id: record.webhook_id,
      callback_url: url,
      action: updated ? 'updated' : 'created',
    });
  }
  const kept = await management.readSecret().catch((error: { type?: string }) => {
    if (error.type === 'HTTP_404') return undefined;
    throw error;
  });
  const secret = kept ?? (await management.createSecret());
  result.secret = { action: kept ? 'kept' : 'created', date_updated: secret.date_updated };
  return result;
}
