/**
 * The baseline's worker: the workflows of baselineWorkflows.ts, bundled on their own, on a task
 * queue of their own, on the same dev server as the real worker and with its tuning (the worker
 * process's WORKER_* settings, worker/workerConfig.ts); `workerSettings` prints them. Payloads are
 * not encrypted here: the codec is this project's cost, not Temporal's.
 */
import { Client, Connection } from '@temporalio/client';
import { NativeConnection, Worker } from '@temporalio/worker';
import { temporalConnectionOptions, type TemporalConfig } from '../../config/temporalConfig';
import type { WorkerTuning } from '../../worker/workerConfig';
import { bundlerOptionsFor } from '../../worker/workflowBundle';
import { createBaselineActivities } from './baselineActivities';

export const BASELINE_TASK_QUEUE = 'bench-throughput-baseline';
const baselineWorkflowsPath = require.resolve('./baselineWorkflows');

export interface BaselineWorker {
  worker: Worker;
  client: Client;
  stop(): Promise<void>;
}

export async function startBaselineWorker(temporal: TemporalConfig, tuning?: WorkerTuning): Promise<BaselineWorker> {
  const options = temporalConnectionOptions(temporal);
  const connection = await Connection.connect(options);
  const client = new Client({ connection, namespace: temporal.namespace });
  const nativeConnection = await NativeConnection.connect(options);
  const worker = await Worker.create({
    connection: nativeConnection,
    namespace: temporal.namespace,
    taskQueue: BASELINE_TASK_QUEUE,
    workflowsPath: baselineWorkflowsPath,
    bundlerOptions: bundlerOptionsFor(baselineWorkflowsPath),
    activities: createBaselineActivities(client, BASELINE_TASK_QUEUE),
    ...tuning,
  });
  const done = worker.run();
  return {
    worker,
    client,
    async stop() {
      if (worker.getState() === 'RUNNING') worker.shutdown();
      await done.catch(() => undefined);
      await nativeConnection.close();
      await connection.close();
    },
  };
}

/** The settings that decide a worker's throughput, to print side by side. */
export function workerSettings(worker: Worker): string {
  const o = worker.options;
  return JSON.stringify({
    maxCachedWorkflows: o.maxCachedWorkflows,
    workflowThreadPoolSize: o.workflowThreadPoolSize,
    reuseV8Context: o.reuseV8Context,
    tuner: o.tuner,
    workflowTaskPollerBehavior: o.workflowTaskPollerBehavior,
    activityTaskPollerBehavior: o.activityTaskPollerBehavior,
    nonStickyToStickyPollRatio: o.nonStickyToStickyPollRatio,
    stickyQueueScheduleToStartTimeoutMs: o.stickyQueueScheduleToStartTimeoutMs,
  });
}
