/**
 * The outage spool: while Temporal cannot take a delivery, its raw bytes and headers are written
 * to disk durably (see durableFile) before the bridge answers 2xx, one file per delivery named by
 * a sequence number, so that it survives a restart of the bridge. The drain keeps the order per
 * resource workflow: the spool knows which resources each file holds deliveries for.
 *
 * A file that cannot be read back (torn, edited, checksum wrong) is moved to `quarantine/` and
 * reported, never thrown at the drain: one bad file must not stop the others or the process.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { privateDirectory } from '../config/privateFiles';
import { z } from 'zod';
import { moveFileDurably, writeFileDurably, type DurableFileSystem } from './durableFile';

export const spooledDeliverySchema = z.object({
  seq: z.number().int(),
  receivedAt: z.string(),
  batchId: z.string().nullable(),
  /** The exact body, Base64. */
  body: z.string(),
  /** SHA-256 (hex) of the body's bytes; files written before checksums have none. */
  sha256: z.string().optional(),
  /**
   * The signature header of a delivery that arrived before any secret was known: it is verified
   * when one is, and never signalled before.
   */
  pendingSignature: z.string().optional(),
});
export type SpooledDelivery = z.infer<typeof spooledDeliverySchema>;
export type NewSpooledDelivery = Omit<SpooledDelivery, 'seq' | 'sha256'>;

export interface SpoolEntry {
  name: string;
  /** The resource workflow ids the delivery goes to. */
  resources: readonly string[];
  /** The delivery's body bytes (what the spool's byte bound counts). */
  bytes: number;
}

export interface SpoolOptions {
  /** Where a delivery goes; used to keep order per resource. */
  resourcesOf: (record: SpooledDelivery) => string[];
  /** A file was unreadable and moved to `quarantine/`. */
  onQuarantine?: (name: string, problem: string) => void;
  /** The file system deliveries are written through (tests make it fail); node:fs when unset. */
  fileSystem?: DurableFileSystem;
}

const NAME = /^(\d{16})\.json$/;
export const QUARANTINE_DIR = 'quarantine';
/** Written and removed to tell whether the spool takes a delivery now; `.tmp`, so a leftover is cleared at start. */
const WRITABLE_PROBE = 'writable-probe.tmp';

export const bodySha256 = (body: Buffer): string => createHash('sha256').update(body).digest('hex');

/** Parses and checks a spool file's bytes; a problem is described, never thrown. */
function decode(bytes: Buffer): { record: SpooledDelivery } | { problem: string } {
  let json: unknown;
  try {
    json = JSON.parse(bytes.toString('utf8'));
  } catch {
    return { problem: 'not JSON (torn or truncated)' };
  }
  const parsed = spooledDeliverySchema.safeParse(json);
  if (!parsed.success) return { problem: 'not a spooled delivery' };
  const record = parsed.data;
  if (record.sha256 !== undefined && bodySha256(Buffer.from(record.body, 'base64')) !== record.sha256)
    return { problem: 'checksum mismatch' };
  return { record };
}

export class Spool {
  private nextSeq = 1;
  private entryList: SpoolEntry[] = [];
  private readonly resourceCounts = new Map<string, number>();
  private readonly heldNames = new Map<string, number>();
  private heldBytesTotal = 0;
  private bytesTotal = 0;

  constructor(
    readonly dir: string,
    private readonly options: SpoolOptions,
  ) {
    privateDirectory(dir);
    // Leftovers of a write that crashed before its rename are not deliveries: nobody was answered 2xx.
    for (const name of readdirSync(dir)) if (name.endsWith('.tmp')) rmSync(path.join(dir, name), { force: true });
    const names = readdirSync(dir)
      .filter((n) => NAME.test(n))
      .sort();
    const last = names.at(-1);
    if (last) this.nextSeq = Number(NAME.exec(last)?.[1]) + 1;
    for (const name of names) {
      const record = this.read(name, false);
      if (record) this.index(name, record);
    }
  }

  get depth(): number {
    return this.entryList.length;
  }

  /** The body bytes of every spooled delivery (the files are about a third larger: Base64). */
  get bytes(): number {
    return this.bytesTotal;
  }

  /** Deliveries kept before a secret was known (not verified yet), and their bytes. */
  get held(): { count: number; bytes: number } {
    return { count: this.heldNames.size, bytes: this.heldBytesTotal };
  }

  /** A snapshot, oldest first. */
  entries(): readonly SpoolEntry[] {
    return [...this.entryList];
  }

  /** Whether any spooled delivery goes to one of these resources (a newer one must queue behind it). */
  holds(resources: readonly string[]): boolean {
    return resources.some((r) => (this.resourceCounts.get(r) ?? 0) > 0);
  }

  /** Durably appends a delivery; returns once it is on disk and read back intact. */
  append(entry: NewSpooledDelivery): SpooledDelivery {
    const seq = this.nextSeq++;
    const record: SpooledDelivery = { seq, ...entry, sha256: bodySha256(Buffer.from(entry.body, 'base64')) };
    const name = `${String(seq).padStart(16, '0')}.json`;
    writeFileDurably(this.dir, name, Buffer.from(JSON.stringify(record), 'utf8'), this.options.fileSystem);
    this.index(name, record);
    return record;
  }

  /** Whether a delivery could be written now: a probe file is written as durably as one, then removed. */
  writable(): boolean {
    try {
      writeFileDurably(this.dir, WRITABLE_PROBE, Buffer.from('probe'), this.options.fileSystem);
      (this.options.fileSystem?.rmSync ?? rmSync)(path.join(this.dir, WRITABLE_PROBE), { force: true });
      return true;
    } catch {
      return false;
    }
  }

  /** The delivery in `name`, or undefined when the file was unreadable (it is quarantined). */
  read(name: string, indexed = true): SpooledDelivery | undefined {
    let bytes: Buffer;
    try {
      bytes = readFileSync(path.join(this.dir, name));
    } catch (error) {
      this.quarantine(name, `unreadable: ${(error as NodeJS.ErrnoException).code ?? 'error'}`, indexed);
      return undefined;
    }
    const decoded = decode(bytes);
    if ('problem' in decoded) {
      this.quarantine(name, decoded.problem, indexed);
      return undefined;
    }
    return decoded.record;
  }

  /** Removes a delivery once Temporal accepted it (or it went to the dead-letter store). */
  remove(name: string): void {
    rmSync(path.join(this.dir, name), { force: true });
    this.unindex(name);
  }

  private quarantine(name: string, problem: string, indexed: boolean): void {
    try {
      moveFileDurably(path.join(this.dir, name), path.join(this.dir, QUARANTINE_DIR));
    } catch {
      // Gone already, or the disk refuses: either way it is no longer a delivery to drain.
    }
    if (indexed) this.unindex(name);
    this.options.onQuarantine?.(name, problem);
  }

  private index(name: string, record: SpooledDelivery): void {
    let resources: string[];
    try {
      resources = this.options.resourcesOf(record);
    } catch {
      resources = [];
    }
    const bytes = Buffer.byteLength(record.body, 'base64');
    this.entryList.push({ name, resources, bytes });
    this.bytesTotal += bytes;
    if (record.pendingSignature !== undefined) {
      this.heldNames.set(name, bytes);
      this.heldBytesTotal += bytes;
    }
    for (const r of resources) this.resourceCounts.set(r, (this.resourceCounts.get(r) ?? 0) + 1);
  }

  private unindex(name: string): void {
    const at = this.entryList.findIndex((e) => e.name === name);
    if (at < 0) return;
    const [entry] = this.entryList.splice(at, 1);
    this.bytesTotal -= entry?.bytes ?? 0;
    this.heldBytesTotal -= this.heldNames.get(name) ?? 0;
    this.heldNames.delete(name);
    for (const r of entry?.resources ?? []) {
      const left = (this.resourceCounts.get(r) ?? 1) - 1;
      if (left > 0) this.resourceCounts.set(r, left);
      else this.resourceCounts.delete(r);
    }
  }
}
