/**
 * The worker's telemetry and limits, in a process of its own (a Runtime is installed once per process, and the test
 * process already has one): the worker serves the SDK's Prometheus metrics on WORKER_METRICS_PORT,
 * and its concurrency limits are the configured ones (the idle slot gauges show them).
 */
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { freePort } from '../../cli/freePort';
import { waitUntil } from '../support/waitUntil';

test('the worker exports SDK metrics on WORKER_METRICS_PORT, with the configured slots, and stops on SIGTERM', async () => {
  const port = await freePort();
  const child = spawn(
    path.join(__dirname, '..', '..', 'node_modules', '.bin', 'tsx'),
    [path.join(__dirname, 'workerTelemetryProcess.ts')],
    {
      env: {
        ...process.env,
        TEST_TASK_QUEUE: `telemetry-${randomUUID()}`,
        WORKER_METRICS_PORT: String(port),
        WORKER_MAX_CONCURRENT_ACTIVITIES: '7',
        WORKER_MAX_CONCURRENT_WORKFLOW_TASKS: '3',
        WORKER_SHUTDOWN_GRACE: '2s',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  let errors = '';
  child.stderr.on('data', (chunk: Buffer) => (errors += chunk.toString()));
  try {
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => (chunk.toString().includes('ready') ? resolve() : undefined));
      void exited.then((code) =>
        reject(new Error(`worker exited (${code}) before it was ready: ${errors.slice(0, 500)}`)),
      );
    });
    // The slot gauges appear once each worker's pollers have reported (the activity worker's and the
    // workflow worker's at different moments): wait for both, not for a fixed time.
    const gauge = (type: string) => new RegExp(`temporal_worker_task_slots_available\\{[^}]*worker_type="${type}"`);
    const text = await waitUntil('both slot gauges exported', async () => {
      const scraped = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
      return gauge('ActivityWorker').test(scraped) && gauge('WorkflowWorker').test(scraped) && scraped;
    });
    expect(text).toMatch(/temporal_worker_task_slots_available\{[^}]*worker_type="ActivityWorker"[^}]*\} 7/);
    expect(text).toMatch(/temporal_worker_task_slots_available\{[^}]*worker_type="WorkflowWorker"[^}]*\} 3/);
  } finally {
    child.kill('SIGTERM');
  }
  expect(await exited).toBe(0);
}, 60_000);
