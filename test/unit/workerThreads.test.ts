/**
 * bench:throughput's split of a worker process's CPU by thread (bench/cpuMeter.ts): Node 20 names
 * its threads alike, so the roles come from the thread ids and the Temporal core's thread names.
 */
import { Worker } from 'node:worker_threads';
import { threadRoles, workerThreadMeter } from '../../bench/cpuMeter';

describe("a worker process's threads by role", () => {
  it('tells the main thread, the workflow thread, the Temporal core and the rest apart', () => {
    const roles = threadRoles(100, [
      { tid: 100, name: 'node', ms: 90 },
      { tid: 101, name: 'node', ms: 12 },
      { tid: 102, name: 'node', ms: 7 },
      { tid: 110, name: 'tokio-runtime-w', ms: 30 },
      { tid: 111, name: 'workflow-proces', ms: 5 },
      { tid: 112, name: 'node', ms: 140 },
      { tid: 113, name: 'libuv-worker', ms: 1 },
    ]);
    expect(roles).toEqual({ main: 90, workflowThread: 140, temporalCore: 35, other: 20 });
  });

  it('reads this process: a busy worker thread is its workflow thread, the idle main thread spends less', async () => {
    const meter = workerThreadMeter(process.pid);
    // A fixed amount of work, then the thread waits (alive) to be read.
    const busy = new Worker(
      `const { parentPort } = require('node:worker_threads');
       let x = 0; for (let i = 0; i < 1e8; i++) x = (x + i) % 7;
       parentPort.postMessage(x); setInterval(() => {}, 1000);`,
      { eval: true },
    );
    await new Promise((resolve) => busy.once('message', resolve));
    const roles = meter();
    await busy.terminate();
    expect(roles.workflowThread).toBeGreaterThan(roles.main);
    expect(roles.workflowThread).toBeGreaterThan(roles.other);
    expect(roles.workflowThread).toBeGreaterThanOrEqual(50);
  });
});
