/**
 * The dead-letter store, `<spool>/dead-letter/`: deliveries Temporal refused for a reason retrying
 * cannot cure (see temporalRefusal). Each is kept durably with its exact bytes and the refusal,
 * listed without its payload, and replayed by an operator once the cause is fixed
 * (deadLetterReplay, `npm run bridge:dead-letters`). Answering 2xx for such a delivery is honest:
 * it is recorded on disk, and it no longer holds up any other delivery.
 *
 * Letters hold event bodies with names, so the store is bounded: in bytes (a letter that would
 * take it past `maxBytes` is not written, and the delivery stays in the spool), and in time
 * (keptDeliveries.ts: expired ones are removed by the bridge, a case's by `journey purge`).
 */
import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { privateDirectory } from '../config/privateFiles';
import { z } from 'zod';
import { fsyncDirectory, writeFileDurably } from './durableFile';
import { bodySha256 } from './spool';
import type { Refusal } from './temporalRefusal';

export const DEAD_LETTER_DIR = 'dead-letter';
const ID = /^[0-9]{13}-[0-9a-f]{8}$/;

export const deadLetterSchema = z.object({
  id: z.string().regex(ID),
  deadLetteredAt: z.string(),
  reason: z.string(),
  grpcCode: z.number().int().nullable(),
  workflowIds: z.array(z.string()),
  receivedAt: z.string(),
  batchId: z.string().nullable(),
  /** The exact body, Base64, and its SHA-256 (hex). */
  body: z.string(),
  sha256: z.string(),
});
export type DeadLetter = z.infer<typeof deadLetterSchema>;
/** What `list` shows: everything but the payload. */
export type DeadLetterSummary = Omit<DeadLetter, 'body' | 'sha256'> & { bytes: number };

export interface DeadLetterInput {
  receivedAt: string;
  batchId: string | null;
  body: Buffer;
  workflowIds: string[];
}

export interface DeadLetterStoreOptions {
  /** The letters' files together stay within this many bytes; unbounded when unset. */
  maxBytes?: number;
}

export class DeadLetterStore {
  readonly dir: string;

  constructor(
    spoolDir: string,
    private readonly options: DeadLetterStoreOptions = {},
  ) {
    this.dir = path.join(spoolDir, DEAD_LETTER_DIR);
    privateDirectory(this.dir);
  }

  /** Throws when the letter would take the store past its byte bound (nothing is written then). */
  put(delivery: DeadLetterInput, refusal: Refusal, now: Date = new Date()): DeadLetter {
    // Time first, so that names sort in the order deliveries were refused.
    const id = `${String(now.getTime()).padStart(13, '0')}-${randomUUID().slice(0, 8)}`;
    const letter: DeadLetter = {
      id,
      deadLetteredAt: now.toISOString(),
      reason: refusal.reason,
      grpcCode: refusal.grpcCode,
      workflowIds: delivery.workflowIds,
      receivedAt: delivery.receivedAt,
      batchId: delivery.batchId,
      body: delivery.body.toString('base64'),
      sha256: bodySha256(delivery.body),
    };
    const bytes = Buffer.from(JSON.stringify(letter), 'utf8');
    const { maxBytes } = this.options;
    // Read from the disk each time: letters are rare, and the replay command removes them from another process.
    if (maxBytes !== undefined && this.bytes() + bytes.length > maxBytes)
      throw new Error(`the dead-letter store is full (${maxBytes} bytes, BRIDGE_DEAD_LETTER_MAX_BYTES)`);
    writeFileDurably(this.dir, `${id}.json`, bytes);
    return letter;
  }

  /** The bytes of every letter's file. */
  bytes(): number {
    return this.ids().reduce((sum, id) => sum + fileSize(path.join(this.dir, `${id}.json`)), 0);
  }

  ids(): string[] {
    return readdirSync(this.dir)
      .filter((n) => n.endsWith('.json') && ID.test(n.slice(0, -5)))
      .map((n) => n.slice(0, -5))
      .sort();
  }

  get count(): number {
    return this.ids().length;
  }

  /** The letter, or undefined when there is none by that id or it cannot be read intact. */
  read(id: string): DeadLetter | undefined {
    if (!ID.test(id)) return undefined;
    try {
      const letter = deadLetterSchema.parse(JSON.parse(readFileSync(path.join(this.dir, `${id}.json`), 'utf8')));
      return bodySha256(Buffer.from(letter.body, 'base64')) === letter.sha256 ? letter : undefined;
    } catch {
      return undefined;
    }
  }

  list(): DeadLetterSummary[] {
    return this.ids().flatMap((id) => {
      const letter = this.read(id);
      if (!letter) return [];
      const { body, sha256: _sha256, ...summary } = letter;
      return [{ ...summary, bytes: Buffer.from(body, 'base64').length }];
    });
  }

  remove(id: string): void {
    if (!ID.test(id)) return;
    rmSync(path.join(this.dir, `${id}.json`), { force: true });
    fsyncDirectory(this.dir);
  }
}

function fileSize(file: string): number {
  try {
    return statSync(file).size;
  } catch {
    return 0;
  }
}
