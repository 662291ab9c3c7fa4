/**
 * Installs the SDK's Runtime, once per process (Runtime.install cannot be repeated): its own logs
 * at WARN unless asked (`TEMPORAL_LOG_LEVEL`), so progress stays readable, and, when asked, the
 * Prometheus exporter of the SDK's metrics (the worker's WORKER_METRICS_PORT).
 */
import { DefaultLogger, Runtime, type LogLevel } from '@temporalio/worker';
import { dependencyOutageLogger } from './dependencyOutageLog';

const levels = ['TRACE', 'DEBUG', 'INFO', 'WARN', 'ERROR'] as const;
let installed = false;

export interface RuntimeTelemetry {
  /** `host:port` to serve the SDK's metrics at (`/metrics`). */
  metricsBindAddress?: string;
}

/**
 * Returns false when a Runtime was installed already, in which case `telemetry` could not apply
 * (tests share one process, and their setup installs a quiet Runtime first).
 */
export function installRuntimeLogging(env: NodeJS.ProcessEnv = process.env, telemetry: RuntimeTelemetry = {}): boolean {
  if (installed) return false;
  installed = true;
  const wanted = (env.TEMPORAL_LOG_LEVEL ?? 'WARN').toUpperCase();
  const level: LogLevel = (levels as readonly string[]).includes(wanted) ? (wanted as LogLevel) : 'WARN';
  const metrics = telemetry.metricsBindAddress
    ? { metrics: { prometheus: { bindAddress: telemetry.metricsBindAddress } } }
    : {};
  // The SDK core's own (native) logs, printed by the core itself, at the same level: left at their
  // default they print WARN lines, such as a replay's nondeterminism, whatever is asked. (Forwarding
  // them to the logger instead would poll, and keep a process that is done alive.)
  Runtime.install({
    // A dependency that is down: a line when it goes, a line a minute, a line when it is back.
    logger: dependencyOutageLogger(new DefaultLogger(level)),
    telemetryOptions: { logging: { filter: { core: level, other: level } }, ...metrics },
  });
  return true;
}
