/**
 * The simulator's state on disk (`SIMULATOR_STATE_FILE`; `npm start` keeps it in `.data/`): saved
 * before any call but a read is answered (`savesBeforeAnswering`), shortly after every job that
 * changed something, and at stop; restored at start, so a restarted stack resumes journeys that
 * wait on requests the provider must still know (one instance is one environment: its ids, its
 * secrets, its keys' first answers). Whatever stops the process (SIGKILL too), an id it answered
 * is on disk. The request log is not kept: it is for tests, and grows without bound.
 */
import { closeSync, existsSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, writeSync } from 'node:fs';
import { open, rename } from 'node:fs/promises';
import path from 'node:path';
import type { RequestHandler, Response } from 'express';
import { z } from 'zod';
import { ConfigurationError } from '../config/environment';
import type { KeyRecord } from './idempotency';
import type { SimulatorStore } from './store';

const mapNames = [
  'persons',
  'companies',
  'creditReports',
  'cases',
  'documents',
  'openBankingConnections',
  'accounts',
  'affordability',
  'incomeEmployer',
  'identityVerifications',
  'webhooks',
  'createdWithKey',
] as const;
const listNames = ['registry', 'faults', 'deliveries', 'picklistResolutions'] as const;

const savedStateSchema = z.object({
  version: z.literal(1),
  randomPosition: z.number().int().min(0),
  maps: z.record(z.string(), z.array(z.tuple([z.string(), z.unknown()]))),
  lists: z.record(z.string(), z.array(z.unknown())),
  webhookSecret: z.object({ secret: z.string(), date_updated: z.string() }).nullable(),
  stats: z.object({ tokenRequests: z.number(), tokensIssued: z.number(), apiCalls: z.number() }),
  idempotency: z.array(
    z.tuple([
      z.string(),
      z.object({
        path: z.string(),
        body: z.unknown(),
        answer: z.object({ status: z.number(), contentType: z.string().optional(), body: z.string() }).optional(),
      }),
    ]),
  ),
});
type SavedState = z.infer<typeof savedStateSchema>;

function snapshot(store: SimulatorStore): SavedState {
  const maps = Object.fromEntries(mapNames.map((name) => [name, [...(store[name] as Map<string, unknown>).entries()]]));
  const lists = Object.fromEntries(listNames.map((name) => [name, store[name] as unknown[]]));
  const idempotency = [...store.idempotencyRecords.entries()].map(
    ([scope, record]): SavedState['idempotency'][number] => [
      scope,
      {
        path: record.path,
        body: record.body,
        answer: record.answer
          ? {
              status: record.answer.status,
              contentType: record.answer.contentType,
              body: record.answer.body.toString('base64'),
            }
          : undefined,
      },
    ],
  );
  return {
    version: 1,
    randomPosition: store.random.position,
    maps,
    lists,
    webhookSecret: store.webhookSecret,
    stats: store.stats,
    idempotency,
  };
}

function restore(store: SimulatorStore, saved: SavedState): void {
  store.random.position = saved.randomPosition;
  for (const name of mapNames) Object.assign(store, { [name]: new Map(saved.maps[name] ?? []) });
  for (const name of listNames) Object.assign(store, { [name]: saved.lists[name] ?? [] });
  store.webhookSecret = saved.webhookSecret;
  store.stats = saved.stats;
  store.idempotencyRecords.clear();
  for (const [scope, record] of saved.idempotency) {
    // A call still being handled when the state was saved has no answer: it is forgotten, so its retry runs.
    if (!record.answer) continue;
    const answer = {
      status: record.answer.status,
      contentType: record.answer.contentType,
      body: Buffer.from(record.answer.body, 'base64'),
    };
    store.idempotencyRecords.set(scope, { path: record.path, body: record.body, answer } satisfies KeyRecord);
  }
}

/** Restores `store` from `file` when it exists; true when it did. A damaged file stops the start, naming it. */
export function restoreState(store: SimulatorStore, file: string): boolean {
  if (!existsSync(file)) return false;
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new ConfigurationError(
      `SIMULATOR_STATE_FILE: ${file} is not readable JSON (` +
        `${(error as Error).message}); move it away to start a fresh simulator`,
    );
  }
  const saved = savedStateSchema.safeParse(parsed);
  if (!saved.success)
    throw new ConfigurationError(
      `SIMULATOR_STATE_FILE: ${file} is not a saved simulator state; move it away to start a fresh simulator`,
    );
  restore(store, saved.data);
  return true;
}

/**
 * Saves the store to `file`: `saved()` when a caller must know its change is on disk, soon after
 * each `changed()` (coalesced) otherwise, and at once on `flush()`. Saves are written one at a
 * time, each whole: callers that ask while one is being written share the next (a group commit),
 * so under load a save serves many calls.
 */
export class StateSaver {
  private timer: NodeJS.Timeout | undefined;
  /** The save being written, if any. */
  private writing: Promise<void> | undefined;
  /** The save that starts once `writing` is done, shared by every caller that asked meanwhile. */
  private next: Promise<void> | undefined;

  constructor(
    private readonly store: SimulatorStore,
    private readonly file: string,
    private readonly delayMs = 100,
  ) {
    mkdirSync(path.dirname(this.file), { recursive: true });
  }

  changed(): void {
    this.timer ??= setTimeout(() => void this.saved().catch(() => undefined), this.delayMs);
  }

  /** Resolves once a save that began after this call, and so holds every change before it, is on disk. */
  saved(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.next ??= (this.writing ?? Promise.resolve())
      .catch(() => undefined)
      .then(() => {
        this.next = undefined;
        this.writing = this.write(Buffer.from(JSON.stringify(snapshot(this.store))));
        return this.writing;
      });
    return this.next;
  }

  /** Written whole to a temporary file, synced, then renamed over the old one: never half a state. */
  private async write(bytes: Buffer): Promise<void> {
    const temporary = `${this.file}.tmp`;
    const handle = await open(temporary, 'w', 0o600);
    try {
      await handle.writeFile(bytes);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temporary, this.file);
  }

  /** The same, at once and synchronously (tests; a process about to end). Not while `saved()` is writing. */
  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    const temporary = `${this.file}.tmp`;
    const bytes = Buffer.from(JSON.stringify(snapshot(this.store)));
    const fd = openSync(temporary, 'w', 0o600);
    try {
      for (let written = 0; written < bytes.length;) written += writeSync(fd, bytes, written);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temporary, this.file);
  }
}

/**
 * Holds the answer of every call but a read until the state, with what the call changed, is on
 * disk: an id the simulator answered survives any stop. A save that fails cuts the connection
 * instead of answering, as a lost answer would (the client's retry finds out). A call whose answer
 * is lost (a fault, or its client gone) saves soon after instead.
 */
export function savesBeforeAnswering(saver: StateSaver): RequestHandler {
  return (req, res, next) => {
    if (req.method === 'GET' || req.method === 'HEAD') return next();
    res.on('close', () => saver.changed());
    const end = res.end.bind(res) as (...args: unknown[]) => Response;
    res.end = ((...args: unknown[]) => {
      saver.saved().then(
        () => end(...args),
        (error: Error) => {
          console.error(`simulator: state not saved (${error.message}); the answer is withheld`);
          res.destroy();
        },
      );
      return res;
    }) as Response['end'];
    next();
  };
}
