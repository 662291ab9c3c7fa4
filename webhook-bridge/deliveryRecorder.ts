/**
 * Records a verified delivery durably (DESIGN.md §6.1): signalled to Temporal, or, when Temporal
 * does not take it in time, appended to the spool, which drains in order with backoff. While the
 * spool holds anything, new deliveries queue behind it so that order is kept.
 */
import type { Logger } from 'pino';
import { parseDelivery } from '../provider';
import type { BridgeMetrics } from './metrics';
import { planDelivery, type RoutedDelivery } from './routeDelivery';
import type { Spool, SpooledDelivery } from './spool';

export type RecordOutcome = 'signalled' | 'spooled' | 'unavailable';

export interface DeliveryRecorderOptions {
  /** Hands the routed delivery to Temporal; rejects when Temporal did not accept it (in time). */
  signal: (routed: RoutedDelivery) => Promise<void>;
  spool: Spool;
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
}

export function routeIncoming(d: { body: unknown; batchId: string | null; receivedAt: string }): RoutedDelivery {
  return planDelivery(parseDelivery(d.body), d.body, { batchId: d.batchId, receivedAt: d.receivedAt });
}

export class DeliveryRecorder {
  private draining?: Promise<void>;
  private stopped = false;
  private wake?: () => void;

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
    const { spool, metrics, logger } = this.options;
    const routed = routeIncoming(delivery);
    if (spool.depth === 0) {
      const stopTimer = metrics.signalLatency.startTimer();
      try {
        await this.options.signal(routed);
        stopTimer();
        return { outcome: 'signalled', routed };
      } catch (error) {
        logger.warn({ batchId: delivery.batchId, eventType: routed.eventType, err: String(error) }, 'Temporal did not take the delivery; spooling it');
      }
    }
    if (this.spoolFull) return { outcome: 'unavailable', routed };
    spool.append({ receivedAt: delivery.receivedAt, batchId: delivery.batchId, body: delivery.raw.toString('base64') });
    metrics.spoolDepth.set(spool.depth);
    this.startDrain();
    return { outcome: 'spooled', routed };
  }

  private startDrain(): void {
    if (this.stopped) return;
    this.draining ??= this.drain().finally(() => (this.draining = undefined));
  }

  private async drain(): Promise<void> {
    const { spool, metrics, logger } = this.options;
    const { initialMs, maxMs } = this.options.backoff ?? { initialMs: 250, maxMs: 30_000 };
    let delay = initialMs;
    for (let next = spool.peek(); next && !this.stopped; next = spool.peek()) {
      try {
        await this.options.signal(routeSpooled(next));
        spool.shift();
        metrics.spoolDrained.inc();
        metrics.spoolDepth.set(spool.depth);
        delay = initialMs;
      } catch (error) {
        logger.warn({ spoolDepth: spool.depth, retryInMs: delay, err: String(error) }, 'spool drain waiting for Temporal');
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, delay);
          this.wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
        this.wake = undefined;
        delay = Math.min(maxMs, delay * 2);
      }
    }
    if (spool.depth === 0) logger.info('spool drained');
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

function routeSpooled(entry: SpooledDelivery): RoutedDelivery {
  const raw = Buffer.from(entry.body, 'base64');
  return routeIncoming({ body: JSON.parse(raw.toString('utf8')), batchId: entry.batchId, receivedAt: entry.receivedAt });
}
