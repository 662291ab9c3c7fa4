/**
 * Records a delivery durably (docs/architecture.md, "Nothing answered 2xx is lost"): signalled to
 * Temporal, or, when Temporal does not take it in time, appended to the spool, which the SpoolDrain
 * hands on later.
 *
 * Order is kept per resource workflow, not globally: a new delivery queues behind spooled ones only
 * when they go to one of its resources. A delivery Temporal refuses for good goes to the
 * dead-letter store at once; one not taken for a reason of its resource (a refusal, or a timeout
 * while Temporal answers the probe) is spooled and its resource waits in the drain. While
 * Temporal is known to be away, new deliveries go straight to the spool rather than each waiting
 * out the signal deadline. A delivery that could not be verified yet (no secret known) is always
 * spooled, with its signature header.
 */
import type { Logger } from 'pino';
import { deadLetterKeeper, type KeepDeadLetter } from './deadLetterKeeper';
import type { DeadLetterStore } from './deadLetters';
import type { BridgeMetrics } from './metrics';
import { workflowIdsOf, type RoutedDelivery } from './routeDelivery';
import type { Spool } from './spool';
import { SpoolDrain } from './spoolDrain';
import { routeIncoming } from './spooledRouting';
import { TemporalHealth } from './temporalHealth';
import { classifyRefusal } from './temporalRefusal';

export { routeIncoming, routeSpooled } from './spooledRouting';

export type RecordOutcome = 'signalled' | 'spooled' | 'held' | 'dead_lettered' | 'unavailable';

/** How long a finding that the spool can (or cannot) be written stands for /readyz (ms). */
const WRITABLE_FRESH_MS = 1_000;

export interface DeliveryRecorderOptions {
  /** Hands the routed delivery to Temporal; rejects when Temporal did not accept it (in time). */
  signal: (routed: RoutedDelivery) => Promise<void>;
  spool: Spool;
  deadLetters: DeadLetterStore;
  /** Verifies a delivery kept before a secret was known (see signatureCheck). */
  verifyHeld: (raw: Buffer, signature: string) => Promise<'verified' | 'tampered' | 'pending'>;
  /** Beyond this many spooled deliveries the bridge answers 503 rather than grow without bound. */
  spoolLimit: number;
  /** Beyond this many body bytes in the spool the bridge answers 503 too; unbounded in bytes when unset. */
  spoolMaxBytes?: number;
  /**
   * Deliveries held while no secret is known (anyone can send one with any signature): beyond
   * this many, or this many bytes of them, the bridge answers 503 instead of filling its disk.
   */
  heldLimit?: { count: number; bytes: number };
  metrics: BridgeMetrics;
  logger: Logger;
  backoff?: { initialMs: number; maxMs: number };
  /** Whether Temporal answers, and the probe that confirms a timeout; without one only signals tell. */
  temporal?: TemporalHealth;
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
  readonly temporal: TemporalHealth;
  private readonly keepDeadLetter: KeepDeadLetter;
  private readonly drain: SpoolDrain;
  private writable = { value: true, at: 0 };

  constructor(private readonly options: DeliveryRecorderOptions) {
    this.temporal = options.temporal ?? new TemporalHealth();
    this.keepDeadLetter = deadLetterKeeper(options.deadLetters, options.metrics, options.logger);
    this.drain = new SpoolDrain({ ...options, keepDeadLetter: this.keepDeadLetter, temporal: this.temporal });
    // Temporal answers again (a probe said so): a drain waiting for it goes on now.
    this.temporal.subscribe((state) => state === 'reachable' && this.drain.start());
    options.metrics.spoolDepth.set(options.spool.depth);
    if (options.spool.depth > 0) this.drain.start();
  }

  get spoolDepth(): number {
    return this.options.spool.depth;
  }

  get spoolFull(): boolean {
    return this.spoolOverLimit(0);
  }

  /** Whether the spool is at its count limit, or `incomingBytes` more would take it past its byte limit. */
  private spoolOverLimit(incomingBytes: number): boolean {
    const { spool, spoolLimit, spoolMaxBytes } = this.options;
    if (spool.depth >= spoolLimit) return true;
    if (spoolMaxBytes === undefined) return false;
    return incomingBytes === 0 ? spool.bytes >= spoolMaxBytes : spool.bytes + incomingBytes > spoolMaxBytes;
  }

  /** Whether a delivery could be spooled now: the last write's outcome, or a probe write when that is stale. */
  spoolWritable(): boolean {
    if (Date.now() - this.writable.at > WRITABLE_FRESH_MS)
      this.writable = { value: this.options.spool.writable(), at: Date.now() };
    return this.writable.value;
  }

  async record(delivery: IncomingDelivery): Promise<{ outcome: RecordOutcome; routed: RoutedDelivery }> {
    const routed = routeIncoming(delivery);
    if (delivery.pendingSignature !== undefined) {
      if (this.heldFull(delivery.raw.length)) return { outcome: 'unavailable', routed };
      return { outcome: this.spoolIt(delivery, routed) === 'spooled' ? 'held' : 'unavailable', routed };
    }
    const resources = workflowIdsOf(routed);
    if (!this.temporal.down && !this.options.spool.holds(resources)) {
      const direct = await this.signalDirectly(delivery, routed);
      if (direct === 'signalled' || direct === 'dead_lettered') return { outcome: direct, routed };
      const outcome = this.spoolIt(delivery, routed);
      // Its resources wait in the drain before they are tried again; other resources do not.
      if (direct === 'resource' && outcome === 'spooled') this.drain.resourceFailed(resources);
      return { outcome, routed };
    }
    return { outcome: this.spoolIt(delivery, routed), routed };
  }

  /** Signals at once; otherwise says why Temporal did not take it (the delivery is then spooled). */
  private async signalDirectly(
    delivery: IncomingDelivery,
    routed: RoutedDelivery,
  ): Promise<'signalled' | 'dead_lettered' | 'resource' | 'unavailable'> {
    const stopTimer = this.options.metrics.signalLatency.startTimer();
    try {
      await this.options.signal(routed);
      stopTimer();
      this.temporal.answered();
      return 'signalled';
    } catch (error) {
      const refusal = classifyRefusal(error);
      // A timeout waits for the probe (shared by every delivery that timed out meanwhile), so
      // that the deliveries after it know whether to try Temporal at all.
      const verdict = await this.temporal.judge(refusal);
      const body = delivery.raw.toString('base64');
      if (
        verdict === 'permanent' &&
        this.keepDeadLetter({ receivedAt: delivery.receivedAt, batchId: delivery.batchId, body }, routed, refusal)
      )
        return 'dead_lettered';
      this.options.logger.warn(
        { batchId: delivery.batchId, eventType: routed.eventType, refusal: verdict, grpcCode: refusal.grpcCode },
        'Temporal did not take the delivery; spooling it',
      );
      return verdict === 'unavailable' ? 'unavailable' : 'resource';
    }
  }

  private heldFull(incomingBytes: number): boolean {
    const limit = this.options.heldLimit;
    if (!limit) return false;
    const held = this.options.spool.held;
    return held.count >= limit.count || held.bytes + incomingBytes > limit.bytes;
  }

  private spoolIt(delivery: IncomingDelivery, routed: RoutedDelivery): 'spooled' | 'unavailable' {
    if (this.spoolOverLimit(delivery.raw.length)) return 'unavailable';
    try {
      this.options.spool.append({
        receivedAt: delivery.receivedAt,
        batchId: delivery.batchId,
        body: delivery.raw.toString('base64'),
        pendingSignature: delivery.pendingSignature,
      });
      this.writable = { value: true, at: Date.now() };
    } catch (error) {
      this.writable = { value: false, at: Date.now() };
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

  /** Tries every spooled delivery now rather than after its backoff (a secret became known, say). */
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
