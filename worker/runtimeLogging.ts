/** Keeps the SDK's own logs at WARN unless asked (`TEMPORAL_LOG_LEVEL`), so progress stays readable. */
import { DefaultLogger, Runtime, type LogLevel } from '@temporalio/worker';

const levels = ['TRACE', 'DEBUG', 'INFO', 'WARN', 'ERROR'] as const;
let installed = false;

export function installRuntimeLogging(env: NodeJS.ProcessEnv = process.env): void {
  if (installed) return;
  installed = true;
  const wanted = (env.TEMPORAL_LOG_LEVEL ?? 'WARN').toUpperCase();
  const level: LogLevel = (levels as readonly string[]).includes(wanted) ? (wanted as LogLevel) : 'WARN';
  Runtime.install({ logger: new DefaultLogger(level) });
}
