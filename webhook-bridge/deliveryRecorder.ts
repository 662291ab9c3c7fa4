/**
 * Records a delivery durably (docs/architecture.md, "Nothing answered 2xx is lost"): signalled to
 * Temporal, or, when Temporal does not take it in time, appended to the spool, which the SpoolDrain
 * hands on later.
 *
 * Order is kept per resource workflow, not globally: a new delivery queues behind spooled ones only
 * when they go to one of its resources. A delivery Temporal refuses for good goes to the
 * dead-letter store at once. While Temporal does not answer at all, new deliveries go straight to
 * the spool rather than each waiting out the signal deadline. A delivery that could not be
 * verified yet (no secret known) is always spooled, with its signature header.
 */
import type { Logger } from 'pino';
import { deadLetterKeeper, type KeepDeadLetter } from './deadLetterKeeper';
import type { DeadLetterStore } from './deadLetters';
import type { BridgeMetrics } from './metrics';
import { workflowIdsOf, type RoutedDelivery } from './routeDelivery';
import type { Spool } from './spool';
import { SpoolDrain, type TemporalHealth } from './spoolDrain';
import { routeIncoming } from './spooledRouting';
import { classifyRefusal } from './temporalRefusal';

export { routeIncoming, routeSpooled } from './spooledRouting';

export type RecordOutcome = 'signalled' | 'spooled' | 'held' | 'dead_lettered' | 'unavailable';

export interface DeliveryRecorderOptions {
  /** Hands the routed delivery to Temporal; rejects when Temporal did not accept it (in time). */
  signal: (routed: RoutedDelivery) => Promise<void>;
  spool: Spool;
  deadLetters: DeadLetterStore;
  /** Verifies a delivery kept before a secret was known (see signatureCheck). */
  verifyHeld: (raw: Buffer, signature: string) => Promise<'verified' | 'tampered' | 'pending'>;
  /** Beyond this many spooled deliveries the bridge answers 503 rather than grow without bound. */
  spoolLimit: number;
  /**
   * Deliveries held while no secret is known (anyone can send one with any signature): beyond
   * this many, or this many bytes of them, the bridge answers 503 instead of filling its disk.
   */
  heldLimit?: { count: number; bytes: number };
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

export class DeliveryRecorder {
  private readonly temporal: TemporalHealth = { down: false };
  private readonly keepDeadLetter: KeepDeadLetter;
  private readonly drain: SpoolDrain;

  constructor(private readonly options: DeliveryRecorderOptions) {
    this.keepDeadLetter = deadLetterKeeper(options.deadLetters, options.metrics, options.logger);
    this.drain = new SpoolDrain({ ...options, keepDeadLetter: this.keepDeadLetter, temporal: this.temporal });
    options.metrics.spoolDepth.set(options.spool.depth);
    if (options.spool.depth > 0) this.drain.start();
  }

  get spoolDepth(): number {
    return this.options.spool.depth;
  }

  get spoolFull(): boolean {
    return this.options.spool.depth >= this.options.spoolLimit;
  }

  async record(delivery: IncomingDelivery): Promise<{ outcome: RecordOutcome; routed: RoutedDelivery }> {
    const routed = routeIncoming(delivery);
    if (delivery.pendingSignature !== undefined) {
      if (this.heldFull(delivery.raw.length)) return { outcome: 'unavailable', routed };
      return { outcome: this.spoolIt(delivery, routed) === 'spooled' ? 'held' : 'unavailable', routed };
    }
    if (!this.temporal.down && !this.options.spool.holds(workflowIdsOf(routed))) {
      const direct = await this.signalDirectly(delivery, routed);
      if (direct) return { outcome: direct, routed };
    }
    return { outcome: this.spoolIt(delivery, routed), routed };
  }

  /** Signals at once; undefined when the delivery must be spooled instead. */
  private async signalDirectly(delivery: IncomingDelivery, routed: RoutedDelivery): Promise<RecordOutcome | undefined> {
    const stopTimer = this.options.metrics.signalLatency.startTimer();
    try {
      await this.options.signal(routed);
      stopTimer();
      // Temporal answers again: a drain backing off for that reason can go on now. (Not on every
      // success: a resource that keeps being refused must not be retried at the traffic's rate.)
      const wasDown = this.temporal.down;
      this.temporal.down = false;
      if (wasDown) this.drain.nudge();
      return 'signalled';
    } catch (error) {
      const refusal = classifyRefusal(error);
      const body = delivery.raw.toString('base64');
      if (
        refusal.kind === 'permanent' &&
        this.keepDeadLetter({ receivedAt: delivery.receivedAt, batchId: delivery.batchId, body }, routed, refusal)
      )
        return 'dead_lettered';
      if (refusal.kind === 'unavailable') this.temporal.down = true;
      this.options.logger.warn(
        { batchId: delivery.batchId, eventType: routed.eventType, refusal: refusal.kind, grpcCode: refusal.grpcCode },
        'Temporal did not take the delivery; spooling it',
      );
      return undefined;
    }
  }

  private heldFull(incomingBytes: number): boolean {
    const limit = this.options.heldLimit;
    if (!limit) return false;
    const held = this.options.spool.held;
    return held.count >= limit.count || held.bytes + incomingBytes > limit.bytes;
  }

  private spoolIt(delivery: IncomingDelivery, routed: RoutedDelivery): 'spooled' | 'unavailable' {
    if (this.spoolFull) return 'unavailable';
    try {
      this.options.spool.append({
        receivedAt: delivery.receivedAt,
        batchId: delivery.batchId,
        body: delivery.raw.toString('base64'),
        pendingSignature: delivery.pendingSignature,
      });
    } catch (error) {
      // Not on disk, so not accepted: the sender is told 503, never a 2xx that would lie.
      this.options.logger.error(
        { eventType: routed.eventType, err: error instanceof Error ? error.message : String(error) },
        'could not write the delivery to the spool',
      );
      return 'unavailable';
    }
    this.options.metrics.spoolDepth.set(this.options.spool.depth);
    this.drain.start();
    return 'spooled';
  }

  /** Drains now rather than after the backoff (a secret became known, say). */
  nudge(): void {
    this.drain.nudge();
  }

  /** Resolves when the spool is empty (or the recorder stopped). */
  drained(): Promise<void> {
    return this.drain.drained();
  }

  stop(): Promise<void> {
    return this.drain.stop();
  }
}
