/**
 * The bridge's Prometheus metrics. Every label value comes from a fixed set (eventTypeLabel,
 * outcomes, gRPC codes), so no sender can grow the number of series.
 */
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { TemporalState } from './temporalHealth';

export interface MetricSources {
  /** Deliveries in the dead-letter store now (read at each scrape: an operator may replay meanwhile). */
  deadLetterCount?: () => number;
  /** Whether the webhook secrets are known (read from the provider, or configured). */
  secretKnown?: () => boolean;
  /** Whether Temporal answers, as last known (read at each scrape, never waiting for a probe). */
  temporalState?: () => TemporalState;
}

export function createBridgeMetrics(sources: MetricSources = {}) {
  const registry = new Registry();
  return {
    registry,
    deliveries: new Counter({
      name: 'bridge_deliveries_total',
      help:
        'Deliveries by outcome (signalled, spooled, held, dead_lettered, rejected_signature, ' +
        'malformed_json, too_large, unavailable) and event type (known types, other)',
      labelNames: ['outcome', 'event_type'] as const,
      registers: [registry],
    }),
    signatureFailures: new Counter({
      name: 'bridge_signature_failures_total',
      help: 'Deliveries refused because the signature was missing, malformed or did not match',
      labelNames: ['reason'] as const,
      registers: [registry],
    }),
    signalLatency: new Histogram({
      name: 'bridge_signal_latency_seconds',
      help: 'Time for Temporal to accept the signals of one delivery',
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
      registers: [registry],
    }),
    spoolDepth: new Gauge({
      name: 'bridge_spool_depth',
      help: 'Deliveries waiting in the outage spool',
      registers: [registry],
    }),
    spoolResourcesWaiting: new Gauge({
      name: 'bridge_spool_resources_waiting',
      help: 'Resource workflows whose spooled deliveries wait for their own backoff after one was not taken',
      registers: [registry],
    }),
    temporalReachable: new Gauge({
      name: 'bridge_temporal_reachable',
      help: '1 when Temporal answered the last signal or probe, 0 when it did not (deliveries are spooled meanwhile)',
      registers: [registry],
      collect() {
        if (sources.temporalState) this.set(sources.temporalState() === 'reachable' ? 1 : 0);
      },
    }),
    spoolDrained: new Counter({
      name: 'bridge_spool_drained_total',
      help: 'Spooled deliveries handed to Temporal',
      registers: [registry],
    }),
    spoolQuarantined: new Counter({
      name: 'bridge_spool_quarantined_total',
      help: 'Spool files that could not be read back intact and were moved to quarantine/',
      registers: [registry],
    }),
    deadLettered: new Counter({
      name: 'bridge_dead_letters_total',
      help: 'Deliveries Temporal refused for a reason retrying cannot cure, kept in dead-letter/',
      labelNames: ['event_type'] as const,
      registers: [registry],
    }),
    deadLetterDepth: new Gauge({
      name: 'bridge_dead_letter_depth',
      help: 'Deliveries in the dead-letter store, waiting for an operator',
      registers: [registry],
      collect() {
        if (sources.deadLetterCount) this.set(sources.deadLetterCount());
      },
    }),
    tampered: new Counter({
      name: 'bridge_tampered_total',
      help: 'Deliveries kept while no secret was known that then failed verification, and were dropped',
      registers: [registry],
    }),
    drainErrors: new Counter({
      name: 'bridge_drain_errors_total',
      help: 'Unexpected errors in the spool drain (caught; the delivery is retried)',
      registers: [registry],
    }),
    secretKnown: new Gauge({
      name: 'bridge_webhook_secret_known',
      help: '1 when the webhook secrets are known, 0 while the first read from the provider is still retried',
      registers: [registry],
      collect() {
        this.set(sources.secretKnown === undefined || sources.secretKnown() ? 1 : 0);
      },
    }),
  };
}

export type BridgeMetrics = ReturnType<typeof createBridgeMetrics>;
