/**
 * A worker of the task-split probe as a process of its own, for a test that SIGKILLs it while it
 * holds the probe's run (test/faults/querySplitsTask.test.ts). Its sticky queue's
 * schedule-to-start timeout is STICKY_TIMEOUT_MS: how long a task or a query sent there waits for it
 * once it is gone. Prints `ready` once it polls.
 */
import { NativeConnection, Worker } from '@temporalio/worker';

async function main(): Promise<void> {
  const { TEMPORAL_ADDRESS, TASK_QUEUE, WORKFLOW_BUNDLE, STICKY_TIMEOUT_MS } = process.env;
  const stickyTimeoutMs = Number(STICKY_TIMEOUT_MS);
  if (!TEMPORAL_ADDRESS || !TASK_QUEUE || !WORKFLOW_BUNDLE || !(stickyTimeoutMs > 0))
    throw new Error('TEMPORAL_ADDRESS, TASK_QUEUE, WORKFLOW_BUNDLE and STICKY_TIMEOUT_MS (> 0) are required');
  const worker = await Worker.create({
    connection: await NativeConnection.connect({ address: TEMPORAL_ADDRESS }),
    taskQueue: TASK_QUEUE,
    workflowBundle: { codePath: WORKFLOW_BUNDLE },
    stickyQueueScheduleToStartTimeout: stickyTimeoutMs,
  });
  process.stdout.write('ready\n');
  await worker.run();
}

void main();
