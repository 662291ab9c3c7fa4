/**
 * The spool's drain: hands spooled deliveries to Temporal, oldest first, keeping order per
 * resource workflow, several resources at a time. Only the oldest delivery of each resource is
 * tried. One Temporal refuses for good goes to the dead-letter store; one not taken for a reason
 * of its own resource (refused, timed out, cancelled while Temporal answers the probe) makes that
 * resource wait with a backoff of its own while every other resource drains past it. While
 * Temporal says it is away, or its probe fails, no signal is tried: the drain waits, with backoff,
 * for the probe to answer (with no probe, it tries one delivery before the others). A delivery
 * kept before a secret was known is verified first, and dropped as tampered when it fails. No
 * error escapes.
 */
import type { Logger } from 'pino';
import type { KeepDeadLetter } from './deadLetterKeeper';
import type { BridgeMetrics } from './metrics';
import type { RoutedDelivery } from './routeDelivery';
import { routeSpooled } from './spooledRouting';
import type { Spool, SpooledDelivery, SpoolEntry } from './spool';
import { ResourceBackoff } from './resourceBackoff';
import type { TemporalHealth } from './temporalHealth';
import { classifyRefusal, type Refusal } from './temporalRefusal';

type EntryResult = 'done' | 'blocked' | 'unavailable';

/** Deliveries handed to Temporal at once by default, each to other resources. */
const CONCURRENCY = 8;

export interface SpoolDrainOptions {
  spool: Spool;
  signal: (routed: RoutedDelivery) => Promise<void>;
  verifyHeld: (raw: Buffer, signature: string) => Promise<'verified' | 'tampered' | 'pending'>;
  keepDeadLetter: KeepDeadLetter;
  temporal: TemporalHealth;
  metrics: BridgeMetrics;
  logger: Logger;
  backoff?: { initialMs: number; maxMs: number };
  /** Deliveries handed to Temporal at once, each to other resources. */
  concurrency?: number;
}

/** What order is kept by: the entry's resources, or the entry itself when none could be read. */
const keysOf = (entry: SpoolEntry): readonly string[] =>
  entry.resources.length > 0 ? entry.resources : [`spool-file:${entry.name}`];

export class SpoolDrain {
  private running?: Promise<void>;
  private stopped = false;
  private wake?: () => void;
  private readonly inFlight = new Map<string, Promise<void>>();
  private readonly waits: ResourceBackoff;
  private readonly backoff: { initialMs: number; maxMs: number };

  constructor(private readonly options: SpoolDrainOptions) {
    this.backoff = options.backoff ?? { initialMs: 250, maxMs: 30_000 };
    this.waits = new ResourceBackoff(this.backoff.initialMs, this.backoff.maxMs);
  }

  /** Starts the drain, or has a running one look at the spool again (a delivery was added). */
  start(): void {
    if (this.stopped) return;
    if (this.running) {
      this.wake?.();
      return;
    }
    this.running = this.loop()
      .then(
        () => true,
        (error: unknown) => {
          // Belt and braces: deliveries are caught one by one; nothing may become an unhandled rejection.
          this.options.metrics.drainErrors.inc();
          this.options.logger.error(
            { err: errorText(error) },
            'spool drain failed; it will start again with the next delivery',
          );
          return false;
        },
      )
      .then((clean) => {
        this.running = undefined;
        // A delivery spooled while the loop was ending would otherwise wait for the next one.
        if (clean && !this.stopped && this.options.spool.depth > 0) this.start();
      });
  }

  /** Tries every resource now rather than after its backoff (a secret became known, say). */
  nudge(): void {
    this.waits.clear();
    if (this.options.spool.depth > 0) this.start();
  }

  /** A delivery to these resources was not taken and is spooled: they wait before the drain tries them. */
  resourceFailed(resources: readonly string[]): void {
    this.waits.failed(resources);
  }

  /** Resolves when the spool is empty (or the drain stopped). */
  async drained(): Promise<void> {
    while (this.running) await this.running;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.wake?.();
    await this.running;
  }

  private async loop(): Promise<void> {
    const { spool, temporal, logger } = this.options;
    const { initialMs, maxMs } = this.backoff;
    let downDelay = initialMs;
    let downUntil: number | undefined;
    while (!this.stopped && spool.depth > 0) {
      if (temporal.down && this.inFlight.size === 0) {
        // Temporal is away: wait, then ask the probe. Without a probe to say it is back, one
        // delivery is tried before the others.
        downUntil ??= Date.now() + downDelay;
        if (Date.now() < downUntil) {
          await this.pause(downUntil - Date.now());
          continue;
        }
        downDelay = Math.min(maxMs, downDelay * 2);
        downUntil = Date.now() + downDelay;
        const answers = await temporal.check();
        if (!answers)
          logger.warn({ spoolDepth: spool.depth, retryInMs: downDelay }, 'spool drain waiting for Temporal');
        else if (temporal.down) this.launch(1);
        if (this.inFlight.size === 0) continue;
      } else if (!temporal.down) {
        downDelay = initialMs;
        downUntil = undefined;
        this.launch(this.options.concurrency ?? CONCURRENCY);
      }
      if (this.inFlight.size > 0) {
        await this.pause(undefined, this.inFlight.values());
        continue;
      }
      // Every resource left waits for its backoff (or a delivery kept until a secret is known).
      const next = this.waits.nextAt();
      await this.pause(next === undefined ? maxMs : Math.max(1, next - Date.now()));
    }
    await Promise.all(this.inFlight.values());
    this.options.metrics.spoolResourcesWaiting.set(this.waits.size);
    if (spool.depth === 0) logger.info('spool drained');
  }

  /** Starts the oldest delivery of each resource that is neither under way nor waiting, up to `limit` at once. */
  private launch(limit: number): void {
    const now = Date.now();
    const claimed = new Set<string>();
    let scannedAll = true;
    for (const entry of this.options.spool.entries()) {
      if (this.stopped || this.inFlight.size >= limit) {
        scannedAll = false;
        break;
      }
      const keys = keysOf(entry);
      const oldest = keys.every((k) => !claimed.has(k));
      for (const k of keys) claimed.add(k);
      if (!oldest || this.inFlight.has(entry.name) || this.waits.waiting(keys, now)) continue;
      this.inFlight.set(
        entry.name,
        this.drainEntry(entry).finally(() => this.inFlight.delete(entry.name)),
      );
    }
    if (scannedAll) this.waits.keepOnly(claimed);
    this.options.metrics.spoolResourcesWaiting.set(this.waits.size);
  }

  /** Hands one entry on and records what became of it for its resources. Never rejects. */
  private async drainEntry(entry: SpoolEntry): Promise<void> {
    const result = await this.attempt(entry);
    if (result === 'done') this.waits.succeeded(keysOf(entry));
    else if (result === 'blocked') this.waits.failed(keysOf(entry));
    this.options.metrics.spoolDepth.set(this.options.spool.depth);
  }

  private async attempt(entry: SpoolEntry): Promise<EntryResult> {
    try {
      return await this.deliver(entry);
    } catch (error) {
      this.options.metrics.drainErrors.inc();
      this.options.logger.error(
        { spoolFile: entry.name, err: errorText(error) },
        'unexpected error draining a spooled delivery; it stays and is retried',
      );
      return 'blocked';
    }
  }

  private async deliver(entry: SpoolEntry): Promise<EntryResult> {
    const { spool, metrics } = this.options;
    const record = spool.read(entry.name);
    if (!record) return 'done';
    if (record.pendingSignature !== undefined) {
      const verdict = await this.options.verifyHeld(Buffer.from(record.body, 'base64'), record.pendingSignature);
      if (verdict === 'pending') return 'blocked';
      if (verdict === 'tampered') return this.dropTampered(entry, record);
    }
    const routed = routeSpooled(record);
    try {
      await this.options.signal(routed);
    } catch (error) {
      return this.refused(entry, record, routed, classifyRefusal(error));
    }
    this.options.temporal.answered();
    spool.remove(entry.name);
    metrics.spoolDrained.inc();
    return 'done';
  }

  private dropTampered(entry: SpoolEntry, record: SpooledDelivery): EntryResult {
    this.options.spool.remove(entry.name);
    this.options.metrics.tampered.inc();
    this.options.logger.warn(
      { batchId: record.batchId, spoolFile: entry.name },
      'kept delivery failed verification once the secret was known: dropped as tampered',
    );
    return 'done';
  }

  private async refused(
    entry: SpoolEntry,
    record: SpooledDelivery,
    routed: RoutedDelivery,
    refusal: Refusal,
  ): Promise<EntryResult> {
    const verdict = await this.options.temporal.judge(refusal);
    if (verdict === 'permanent' && this.options.keepDeadLetter(record, routed, refusal)) {
      this.options.spool.remove(entry.name);
      return 'done';
    }
    this.options.logger.warn(
      { spoolFile: entry.name, eventType: routed.eventType, refusal: verdict, grpcCode: refusal.grpcCode },
      'spooled delivery not taken yet',
    );
    return verdict === 'unavailable' ? 'unavailable' : 'blocked';
  }

  /** Waits `ms` (unless undefined), until a delivery under way settles, or until woken. */
  private pause(ms: number | undefined, settling: Iterable<Promise<void>> = []): Promise<void> {
    return new Promise<void>((resolve) => {
      let timer: NodeJS.Timeout | undefined;
      const finish = (): void => {
        clearTimeout(timer);
        if (this.wake === finish) this.wake = undefined;
        resolve();
      };
      if (ms !== undefined) timer = setTimeout(finish, ms);
      for (const p of settling) void p.then(finish);
      this.wake = finish;
    });
  }
}

function errorText(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}
