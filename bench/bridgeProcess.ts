/**
 * The bridge as it is deployed: `webhook-bridge/main.ts` (`npm run bridge`) in a process of its
 * own, configured from the environment, logging at its production level to a file. For the bridge
 * benchmark, whose load generator must not share the bridge's event loop.
 */
import path from 'node:path';
import { startNodeProcess } from './nodeProcess';

export interface BridgeProcess {
  url: string;
  pid: number;
  stop(): Promise<void>;
}

export interface BridgeProcessOptions {
  temporalAddress: string;
  taskQueue: string;
  secret: string;
  spoolDir: string;
  logFile: string;
  /** More of the bridge's variables (BRIDGE_LOG_LEVEL, BRIDGE_SIGNAL_TIMEOUT_MS, …). */
  env?: Record<string, string>;
  /** Node arguments (`--cpu-prof`, …). */
  nodeArgs?: string[];
}

export async function startBridgeProcess(options: BridgeProcessOptions): Promise<BridgeProcess> {
  const started = await startNodeProcess({
    script: path.join('webhook-bridge', 'main.ts'),
    portVariable: 'BRIDGE_PORT',
    env: {
      BRIDGE_SPOOL_DIR: options.spoolDir,
      WEBHOOK_SECRET: options.secret,
      TEMPORAL_ADDRESS: options.temporalAddress,
      TEMPORAL_NAMESPACE: 'default',
      TEMPORAL_TASK_QUEUE: options.taskQueue,
      ...options.env,
    },
    logFile: options.logFile,
    name: 'bridge',
    nodeArgs: options.nodeArgs,
  });
  return { url: `${started.baseUrl}/webhooks`, pid: started.pid, stop: () => started.stop() };
}
