/**
 * The outage spool: while Temporal cannot take a delivery, its raw bytes and headers are written
 * to disk and fsynced before the bridge answers 2xx, one file per delivery named by a sequence
 * number, so the spool drains in arrival order and survives a restart of the bridge.
 */
import { closeSync, fsyncSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, rmSync, writeSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';

export const spooledDeliverySchema = z.object({
  seq: z.number().int(),
  receivedAt: z.string(),
  batchId: z.string().nullable(),
  /** The exact body, Base64. */
  body: z.string(),
});
export type SpooledDelivery = z.infer<typeof spooledDeliverySchema>;

const NAME = /^(\d{16})\.json$/;

export class Spool {
  private nextSeq: number;
  private files: string[];

  constructor(readonly dir: string) {
    mkdirSync(dir, { recursive: true });
    // Leftovers of a write that crashed before its rename are not deliveries: nobody was answered 2xx.
    for (const name of readdirSync(dir)) if (name.endsWith('.tmp')) rmSync(path.join(dir, name), { force: true });
    this.files = readdirSync(dir).filter((n) => NAME.test(n)).sort();
    const last = this.files.at(-1);
    this.nextSeq = last ? Number(NAME.exec(last)![1]) + 1 : 1;
  }

  get depth(): number {
    return this.files.length;
  }

  /** Durably appends a delivery; returns once it is on disk (file and directory fsynced). */
  append(entry: Omit<SpooledDelivery, 'seq'>): SpooledDelivery {
    const seq = this.nextSeq++;
    const record: SpooledDelivery = { seq, ...entry };
    const name = `${String(seq).padStart(16, '0')}.json`;
    const tmp = path.join(this.dir, `${name}.tmp`);
    const fd = openSync(tmp, 'w');
    try {
      writeSync(fd, JSON.stringify(record));
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, path.join(this.dir, name));
    const dirFd = openSync(this.dir, 'r');
    try {
      fsyncSync(dirFd);
    } finally {
      closeSync(dirFd);
    }
    this.files.push(name);
    return record;
  }

  /** The oldest spooled delivery, if any. */
  peek(): SpooledDelivery | undefined {
    const name = this.files[0];
    if (!name) return undefined;
    return spooledDeliverySchema.parse(JSON.parse(readFileSync(path.join(this.dir, name), 'utf8')));
  }

  /** Removes the oldest delivery once Temporal has accepted it. */
  shift(): void {
    const name = this.files.shift();
    if (name) rmSync(path.join(this.dir, name), { force: true });
  }
}
