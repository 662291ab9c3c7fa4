/**
 * The bridge benchmark's baseline (minimalBridgeMain.ts) in a process of its own, started the way
 * the bridge process is (nodeProcess.ts: the same node flags), on the same Temporal and task queue.
 */
import path from 'node:path';
import type { BridgeProcess } from '../bridgeProcess';
import { startNodeProcess } from '../nodeProcess';

export async function startMinimalBridgeProcess(options: {
  temporalAddress: string;
  taskQueue: string;
  logFile: string;
}): Promise<BridgeProcess> {
  const started = await startNodeProcess({
    script: path.join('bench', 'bridgeBaseline', 'minimalBridgeMain.ts'),
    portVariable: 'BASELINE_PORT',
    env: {
      TEMPORAL_ADDRESS: options.temporalAddress,
      TEMPORAL_TASK_QUEUE: options.taskQueue,
    },
    logFile: options.logFile,
    name: 'minimal bridge',
  });
  return { url: `${started.baseUrl}/webhooks`, pid: started.pid, stop: () => started.stop() };
}
