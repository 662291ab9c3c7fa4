/**
 * The worker of the workflow-start CPU benchmark, in a process of its own so that its CPU time
 * (every thread: the SDK core, the main thread and the workflow threads) is its own. It runs one
 * workflow bundle with no activities: the workflows it is given (resource workflows that receive
 * one delivery) call none. It answers `cpu` messages with its process.cpuUsage().
 */
import { DefaultLogger, NativeConnection, Runtime, Worker } from '@temporalio/worker';

async function main(): Promise<void> {
  const { BENCH_TEMPORAL_ADDRESS: address, BENCH_TASK_QUEUE: taskQueue, BENCH_WORKFLOW_BUNDLE: codePath } = process.env;
  if (!address || !taskQueue || !codePath)
    throw new Error('BENCH_TEMPORAL_ADDRESS, BENCH_TASK_QUEUE and BENCH_WORKFLOW_BUNDLE are required');
  // Quiet: a line per worker state change would drown the figures.
  Runtime.install({ logger: new DefaultLogger('WARN') });
  const connection = await NativeConnection.connect({ address });
  const worker = await Worker.create({ connection, taskQueue, workflowBundle: { codePath }, activities: {} });
  process.on('message', (message) => {
    if (message === 'cpu') process.send?.({ cpu: process.cpuUsage() });
    if (message === 'stop') worker.shutdown();
  });
  const running = worker.run();
  process.send?.('ready');
  await running;
  await connection.close();
  // The IPC channel would keep this process alive after its worker stopped.
  process.disconnect();
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
