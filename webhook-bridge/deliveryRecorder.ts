/**
 * Records a delivery durably (DESIGN.md §6.1): signalled to Temporal, or, when Temporal does not
 * take it in time, appended to the spool, which drains with backoff.
 *
 * Order is kept per resource workflow, not globally: a new delivery queues behind spooled ones
 * only when they go to one of its resources. A delivery Temporal refuses for a reason retrying
 * cannot cure goes to the dead-letter store; one refused for a reason of its own resource blocks
 * that resource only; only a Temporal that does not answer at all makes everything wait.
 * A delivery kept before any secret was known (`pendingSignature`) is verified before it is
 * signalled, and dropped as tampered when it fails. No error of the drain escapes it.
 */
import type { Logger } from 'pino';
import { parseDelivery } from '../provider';
import type { DeadLetterStore } from './deadLetters';
import { eventTypeLabel } from './eventTypeLabel';
import type { BridgeMetrics } from './metrics';
import { planDelivery, workflowIdsOf, type RoutedDelivery } from './routeDelivery';
import type { Spool, SpooledDelivery, SpoolEntry } from './spool';
import { classifyRefusal, type Refusal } from './temporalRefusal';

export type RecordOutcome = 'signalled' | 'spooled' | 'held' | 'dead_lettered' | 'unavailable';
type EntryResult = 'done' | 'blocked' | 'unavailable';

export interface DeliveryRecorderOptions {
  /** Hands the routed delivery to Temporal; rejects when Temporal did not accept it (in time). */
  signal: (routed: RoutedDelivery) => Promise<void>;
  spool: Spool;
  deadLetters: DeadLetterStore;
  /** Verifies a delivery kept before a secret was known (see signatureCheck). */
  verifyHeld: (raw: Buffer, signature: string) => Promise<'verified' | 'tampered' | 'pending'>;
  /** Beyond this many spooled deliveries the bridge answers 503 rather than grow without bound. */
  spoolLimit: number;
  metrics: BridgeMetrics;
  logger: Logger;
  backoff?: { initialMs: number; maxMs: number };
}

export interface IncomingDelivery {
  raw: Buffer;
  body: unknown;
  batchId: string | null;
  receivedAt: string;
  /** The signature header of a delivery that could not be verified yet (no secret known). */
  pendingSignature?: string;
}

export function routeIncoming(d: { body: unknown; batchId: string | null; receivedAt: string }): RoutedDelivery {
  return planDelivery(parseDelivery(d.body), d.body, { batchId: d.batchId, receivedAt: d.receivedAt });
}

export function routeSpooled(entry: SpooledDelivery): RoutedDelivery {
  const raw = Buffer.from(entry.body, 'base64');
  return routeIncoming({ body: JSON.parse(raw.toString('utf8')), batchId: entry.batchId, receivedAt: entry.receivedAt });
}

export class DeliveryRecorder {
  private draining?: Promise<void>;
  private stopped = false;
  private wake?: () => void;
  /** Set when Temporal did not answer at all: new deliveries go straight to the spool meanwhile. */
  private temporalDown = false;

  constructor(private readonly options: DeliveryRecorderOptions) {
    options.metrics.spoolDepth.set(options.spool.depth);
    if (options.spool.depth > 0) this.startDrain();
  }

  get spoolDepth(): number {
    return this.options.spool.depth;
  }

  get spoolFull(): boolean {
    return this.options.spool.depth >= this.options.spoolLimit;
  }

  async record(delivery: IncomingDelivery): Promise<{ outcome: RecordOutcome; routed: RoutedDelivery }> {
    const routed = routeIncoming(delivery);
    if (delivery.pendingSignature !== undefined) return { outcome: this.spoolIt(delivery, routed) === 'spooled' ? 'held' : 'unavailable', routed };
    if (!this.temporalDown && !this.options.spool.holds(workflowIdsOf(routed))) {
      const direct = await this.signalDirectly(delivery, routed);
      if (direct) return { outcome: direct, routed };
    }
    return { outcome: this.spoolIt(delivery, routed), routed };
  }

  /** Signals at once; undefined when the delivery must be spooled instead. */
  private async signalDirectly(delivery: IncomingDelivery, routed: RoutedDelivery): Promise<RecordOutcome | undefined> {
    const { metrics, logger } = this.options;
    const stopTimer = metrics.signalLatency.startTimer();
    try {
      await this.options.signal(routed);
      stopTimer();
      // Temporal answers again: a drain backing off can go on now.
      this.temporalDown = false;
      if (this.draining) this.wake?.();
      return 'signalled';
    } catch (error) {
      const refusal = classifyRefusal(error);
      if (refusal.kind === 'permanent' && this.deadLetter({ ...delivery, body: delivery.raw.toString('base64') }, routed, refusal)) return 'dead_lettered';
      if (refusal.kind === 'unavailable') this.temporalDown = true;
      logger.warn({ batchId: routed.targets[0]?.delivery.batchId ?? null, eventType: routed.eventType, refusal: refusal.kind, grpcCode: refusal.grpcCode }, 'Temporal did not take the delivery; spooling it');
      return undefined;
    }
  }

  private spoolIt(delivery: IncomingDelivery, routed: RoutedDelivery): 'spooled' | 'unavailable' {
    if (this.spoolFull) return 'unavailable';
    try {
      this.options.spool.append({
        receivedAt: delivery.receivedAt,
        batchId: delivery.batchId,
        body: delivery.raw.toString('base64'),
        ...(delivery.pendingSignature !== undefined ? { pendingSignature: delivery.pendingSignature } : {}),
      });
    } catch (error) {
      // Not on disk, so not accepted: the sender is told 503, never a 2xx that would lie.
      this.options.logger.error({ eventType: routed.eventType, err: errorText(error) }, 'could not write the delivery to the spool');
      return 'unavailable';
    }
    this.options.metrics.spoolDepth.set(this.options.spool.depth);
    this.startDrain();
    return 'spooled';
  }

  /** Keeps a refused delivery in the dead-letter store; false when even that failed. */
  private deadLetter(entry: { receivedAt: string; batchId: string | null; body: string }, routed: RoutedDelivery, refusal: Refusal): boolean {
    const { deadLetters, metrics, logger } = this.options;
    try {
      const letter = deadLetters.put({ receivedAt: entry.receivedAt, batchId: entry.batchId, body: Buffer.from(entry.body, 'base64'), workflowIds: workflowIdsOf(routed) }, refusal);
      metrics.deadLettered.inc({ event_type: eventTypeLabel(routed.eventType) });
      logger.error({ deadLetter: letter.id, eventType: routed.eventType, grpcCode: refusal.grpcCode, reason: refusal.reason }, 'Temporal refused the delivery for good; kept in the dead-letter store');
      return true;
    } catch (error) {
      logger.error({ eventType: routed.eventType, err: errorText(error) }, 'could not write the dead letter; the delivery stays in the spool');
      return false;
    }
  }

  private startDrain(): void {
    if (this.stopped) return;
    this.draining ??= this.drain()
      .catch((error: unknown) => {
        // Belt and braces: the drain catches per delivery; nothing may become an unhandled rejection.
        this.options.metrics.drainErrors.inc();
        this.options.logger.error({ err: errorText(error) }, 'spool drain failed; it will start again with the next delivery');
      })
      .finally(() => (this.draining = undefined));
  }

  private async drain(): Promise<void> {
    const { spool, logger } = this.options;
    const { initialMs, maxMs } = this.options.backoff ?? { initialMs: 250, maxMs: 30_000 };
    let delay = initialMs;
    while (!this.stopped && spool.depth > 0) {
      const pass = await this.drainPass();
      if (this.stopped || spool.depth === 0) break;
      if (pass.progressed) delay = initialMs;
      if (pass.progressed && !pass.waiting && spool.entries().some((e) => !pass.seen.has(e.name))) continue;
      logger.warn({ spoolDepth: spool.depth, retryInMs: delay }, 'spool drain waiting');
      await this.sleep(delay);
      delay = pass.progressed ? initialMs : Math.min(maxMs, delay * 2);
    }
    if (spool.depth === 0) logger.info('spool drained');
  }

  /** One pass over the spool, oldest first, skipping resources whose earlier delivery waits. */
  private async drainPass(): Promise<{ progressed: boolean; waiting: boolean; seen: Set<string> }> {
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
      return await this.deliverSpooled(entry);
    } catch (error) {
      this.options.metrics.drainErrors.inc();
      this.options.logger.error({ spoolFile: entry.name, err: errorText(error) }, 'unexpected error draining a spooled delivery; it stays and is retried');
      return 'blocked';
    }
  }

  private async deliverSpooled(entry: SpoolEntry): Promise<EntryResult> {
    const { spool, metrics, logger } = this.options;
    const record = spool.read(entry.name);
    if (!record) return 'done';
    if (record.pendingSignature !== undefined) {
      const verdict = await this.options.verifyHeld(Buffer.from(record.body, 'base64'), record.pendingSignature);
      if (verdict === 'pending') return 'blocked';
      if (verdict === 'tampered') {
        spool.remove(entry.name);
        metrics.tampered.inc();
        logger.warn({ batchId: record.batchId, spoolFile: entry.name }, 'kept delivery failed verification once the secret was known: dropped as tampered');
        return 'done';
      }
    }
    const routed = routeSpooled(record);
    try {
      await this.options.signal(routed);
    } catch (error) {
      return this.refusedWhileDraining(entry, record, routed, classifyRefusal(error));
    }
    this.temporalDown = false;
    spool.remove(entry.name);
    metrics.spoolDrained.inc();
    return 'done';
  }

  private refusedWhileDraining(entry: SpoolEntry, record: SpooledDelivery, routed: RoutedDelivery, refusal: Refusal): EntryResult {
    if (refusal.kind === 'permanent' && this.deadLetter(record, routed, refusal)) {
      this.options.spool.remove(entry.name);
      return 'done';
    }
    if (refusal.kind === 'unavailable') this.temporalDown = true;
    this.options.logger.warn({ spoolFile: entry.name, eventType: routed.eventType, refusal: refusal.kind, grpcCode: refusal.grpcCode }, 'spooled delivery not taken yet');
    return refusal.kind === 'unavailable' ? 'unavailable' : 'blocked';
  }

  private sleep(ms: number): Promise<void> {
    return new Promise<void>((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.wake = () => {
        this.wake = undefined;
        done();
      };
    });
  }

  /** Starts the drain again now, rather than after its backoff (a secret became known, say). */
  nudge(): void {
    if (this.options.spool.depth === 0) return;
    if (this.draining) this.wake?.();
    else this.startDrain();
  }

  /** Resolves when the spool is empty (or the recorder stopped). */
  async drained(): Promise<void> {
    while (this.draining) await this.draining;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.wake?.();
    await this.draining;
  }
}

function errorText(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}
