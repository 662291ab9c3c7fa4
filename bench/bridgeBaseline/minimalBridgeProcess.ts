/**
 * The bridge benchmark's baseline (minimalBridgeMain.ts) in a process of its own, started the way
 * the bridge process is (nodeProcess.ts: the same node flags), on the same Temporal and task queue.
 */
import path from 'node:path';
import { freePort } from '../../cli/freePort';
import { startNodeProcess } from '../nodeProcess';

export interface MinimalBridgeProcess {
  url: string;
  pid: number;
  stop(): Promise<void>;
}

export async function startMinimalBridgeProcess(options: {
  temporalAddress: string;
  taskQueue: string;
  logFile: string;
}): Promise<MinimalBridgeProcess> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const started = await startNodeProcess({
    script: path.join('bench', 'bridgeBaseline', 'minimalBridgeMain.ts'),
    env: {
      BASELINE_PORT: String(port),
      TEMPORAL_ADDRESS: options.temporalAddress,
      TEMPORAL_TASK_QUEUE: options.taskQueue,
    },
    logFile: options.logFile,
    healthUrl: `${base}/healthz`,
    name: 'minimal bridge',
  });
  return { url: `${base}/webhooks`, pid: started.pid, stop: () => started.stop() };
}
