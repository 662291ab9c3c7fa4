/**
 * The spool's drain: hands spooled deliveries to Temporal, oldest first, keeping order per
 * resource workflow. A delivery Temporal refuses for good goes to the dead-letter store; one
 * refused for a reason of its own resource blocks that resource for this pass only; a Temporal
 * that does not answer at all ends the pass, and the drain backs off. A delivery kept before a
 * secret was known is verified first, and dropped as tampered when it fails. No error escapes.
 */
import type { Logger } from 'pino';
import type { KeepDeadLetter } from './deadLetterKeeper';
import type { BridgeMetrics } from './metrics';
import type { RoutedDelivery } from './routeDelivery';
import { routeSpooled } from './spooledRouting';
import type { Spool, SpooledDelivery, SpoolEntry } from './spool';
import { classifyRefusal, type Refusal } from './temporalRefusal';

type EntryResult = 'done' | 'blocked' | 'unavailable';

/** Shared with the recorder: while Temporal is down, new deliveries go straight to the spool. */
export interface TemporalHealth {
  down: boolean;
}

export interface SpoolDrainOptions {
  spool: Spool;
  signal: (routed: RoutedDelivery) => Promise<void>;
  verifyHeld: (raw: Buffer, signature: string) => Promise<'verified' | 'tampered' | 'pending'>;
  keepDeadLetter: KeepDeadLetter;
  temporal: TemporalHealth;
  metrics: BridgeMetrics;
  logger: Logger;
  backoff?: { initialMs: number; maxMs: number };
}

interface PassResult {
  progressed: boolean;
  waiting: boolean;
  seen: Set<string>;
}

export class SpoolDrain {
  private running?: Promise<void>;
  private stopped = false;
  private wake?: () => void;

  constructor(private readonly options: SpoolDrainOptions) {}

  /** Starts the drain unless it runs already. */
  start(): void {
    if (this.stopped || this.running) return;
    this.running = this.loop()
      .catch((error: unknown) => {
        // Belt and braces: deliveries are caught one by one; nothing may become an unhandled rejection.
        this.options.metrics.drainErrors.inc();
        this.options.logger.error(
          { err: errorText(error) },
          'spool drain failed; it will start again with the next delivery',
        );
      })
      .finally(() => (this.running = undefined));
  }

  /** Goes on now rather than after the backoff (Temporal answers again, a secret became known). */
  nudge(): void {
    if (this.options.spool.depth === 0) return;
    if (this.running) this.wake?.();
    else this.start();
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
    const { spool, logger } = this.options;
    const { initialMs, maxMs } = this.options.backoff ?? { initialMs: 250, maxMs: 30_000 };
    let delay = initialMs;
    while (!this.stopped && spool.depth > 0) {
      const pass = await this.pass();
      if (this.stopped || spool.depth === 0) break;
      if (pass.progressed && !pass.waiting && spool.entries().some((e) => !pass.seen.has(e.name))) continue;
      logger.warn({ spoolDepth: spool.depth, retryInMs: delay }, 'spool drain waiting');
      await this.sleep(delay);
      delay = pass.progressed ? initialMs : Math.min(maxMs, delay * 2);
    }
    if (spool.depth === 0) logger.info('spool drained');
  }

  /** One pass over the spool, oldest first, skipping resources whose earlier delivery waits. */
  private async pass(): Promise<PassResult> {
    const blocked = new Set<string>();
    const seen = new Set<string>();
    let progressed = false;
    for (const entry of this.options.spool.entries()) {
      if (this.stopped) break;
      seen.add(entry.name);
      if (entry.resources.some((r) => blocked.has(r))) continue;
      const result = await this.drainEntry(entry);
      if (result === 'unavailable') return { progressed, waiting: true, seen };
      if (result === 'blocked') for (const r of entry.resources) blocked.add(r);
      else progressed = true;
      this.options.metrics.spoolDepth.set(this.options.spool.depth);
    }
    return { progressed, waiting: blocked.size > 0, seen };
  }

  private async drainEntry(entry: SpoolEntry): Promise<EntryResult> {
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
    this.options.temporal.down = false;
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

  private refused(entry: SpoolEntry, record: SpooledDelivery, routed: RoutedDelivery, refusal: Refusal): EntryResult {
    if (refusal.kind === 'permanent' && this.options.keepDeadLetter(record, routed, refusal)) {
      this.options.spool.remove(entry.name);
      return 'done';
    }
    if (refusal.kind === 'unavailable') this.options.temporal.down = true;
    this.options.logger.warn(
      { spoolFile: entry.name, eventType: routed.eventType, refusal: refusal.kind, grpcCode: refusal.grpcCode },
      'spooled delivery not taken yet',
    );
    return refusal.kind === 'unavailable' ? 'unavailable' : 'blocked';
  }

  private sleep(ms: number): Promise<void> {
    return new Promise<void>((resolve) => {
      const timer = setTimeout(finish, ms);
      function finish(): void {
        clearTimeout(timer);
        resolve();
      }
      this.wake = () => {
        this.wake = undefined;
        finish();
      };
    });
  }
}

function errorText(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}
