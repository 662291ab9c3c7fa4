/**
 * The baseline side of `npm run bench:throughput` in a process of its own, so that its CPU is
 * metered apart from the simulator, the case file and the load: the baseline workflows' worker
 * (baselineWorker.ts), with the worker process's tuning (WORKER_*), and the client that starts each
 * baseline journey and delivers its mailboxes' signals, which in the real journey the case API and
 * the bridge do. Driven over IPC by
 * baselineProcess.ts: it answers `ready` with its worker's settings, runs each `round` it is sent
 * and answers with its journeys' times, and exits on `stop`.
 */
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type { Client } from '@temporalio/client';
import { DefaultLogger, Runtime } from '@temporalio/worker';
import { readTemporalConfig } from '../../config/temporalConfig';
import { readWorkerConfig } from '../../worker/workerConfig';
import { baselineDeliverSignal } from './baselineMessages';
import type { BaselineJourneyPlan } from './baselinePlan';
import type { BaselineRequest, BaselineAnswer } from './baselineProcess';
import { BASELINE_TASK_QUEUE, startBaselineWorker, workerSettings } from './baselineWorker';
import { baselineJourney, baselineMailbox } from './baselineWorkflows';
import { planFor } from './journeyShape';

/** `count` baseline journeys at once, each with its mailboxes' client deliveries; resolves when all have completed. */
async function baselineRound(client: Client, template: BaselineJourneyPlan, count: number) {
  const run = randomUUID().slice(0, 8);
  const journeyIds = Array.from({ length: count }, (_, i) => `baseline/${run}/${i}`);
  const started = performance.now();
  const latencies = await Promise.all(
    journeyIds.map(async (workflowId) => {
      const t0 = performance.now();
      const plan = planFor(template, workflowId);
      const handle = await client.workflow.start(baselineJourney, {
        workflowId,
        taskQueue: BASELINE_TASK_QUEUE,
        args: [plan],
      });
      for (const mailbox of plan.mailboxes) {
        for (let i = 0; i < mailbox.deliveries; i++) {
          await client.workflow.signalWithStart(baselineMailbox, {
            workflowId: mailbox.workflowId,
            taskQueue: BASELINE_TASK_QUEUE,
            args: [],
            signal: baselineDeliverSignal,
            signalArgs: [i < mailbox.forwarded],
          });
        }
      }
      await handle.result();
      return performance.now() - t0;
    }),
  );
  return { journeyIds, seconds: (performance.now() - started) / 1000, latencies };
}

function answer(message: BaselineAnswer): void {
  process.send?.(message);
}

async function main(): Promise<void> {
  Runtime.install({
    logger: new DefaultLogger('WARN'),
    telemetryOptions: { logging: { filter: { core: 'ERROR', other: 'ERROR' } } },
  });
  const worker = await startBaselineWorker(readTemporalConfig(), readWorkerConfig().tuning);
  process.on('message', (request: BaselineRequest) => {
    if (request.kind === 'stop') {
      void worker.stop().then(() => process.exit(0));
      return;
    }
    baselineRound(worker.client, request.template, request.count).then(
      (round) => answer({ kind: 'round', ...round }),
      (error: unknown) => answer({ kind: 'failed', message: String(error) }),
    );
  });
  answer({ kind: 'ready', settings: workerSettings(worker.worker) });
}

main().catch((error: unknown) => {
  answer({ kind: 'failed', message: String(error) });
  process.exit(1);
});
