/** The bridge's Prometheus metrics. */
import { Counter, Gauge, Histogram, Registry } from 'prom-client';

export function createBridgeMetrics() {
  const registry = new Registry();
  return {
    registry,
    deliveries: new Counter({
      name: 'bridge_deliveries_total',
      help: 'Deliveries by outcome (signalled, spooled, rejected_signature, malformed_json, too_large, unavailable) and event type',
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
    spoolDepth: new Gauge({ name: 'bridge_spool_depth', help: 'Deliveries waiting in the outage spool', registers: [registry] }),
    spoolDrained: new Counter({ name: 'bridge_spool_drained_total', help: 'Spooled deliveries handed to Temporal', registers: [registry] }),
  };
}

export type BridgeMetrics = ReturnType<typeof createBridgeMetrics>;
