/**
 * Builds a worker from its dependencies: a Temporal connection, the provider client, the case file
 * and the task queue. Used by the worker process, the `npm start` launcher and the tests alike.
 * Two SDK workers on one connection: one for the task queue (workflows and provider calls), one
 * for its case-events queue (case-events/caseEventsTaskQueue.ts: the journey's LOS events and
 * read-model writes), each with activity slots of its own.
 */
import { Connection } from '@temporalio/client';
import type { WorkerDeploymentVersion } from '@temporalio/common';
import { NativeConnection, Worker, type WorkflowBundleOption } from '@temporalio/worker';
import { createActivities } from '../activities';
import { providerOutageReporter } from '../activities/providerOutageReport';
import { ProviderClient } from '../activities/providerClient';
import { temporalClientOn } from '../client/temporalClient';
import { dataConverterFor } from '../codec/dataConverter';
import { readPayloadKeys, type PayloadKeys } from '../codec/payloadKeys';
import type { ProviderConfig } from '../activities/providerConfig';
import type { CaseFileStore } from '../case-file/store';
import type { CaseEventsConfig } from '../case-events/caseEventsConfig';
import { startCaseEventOutbox } from '../case-events/caseEventOutbox';
import { caseEventsTaskQueue } from '../case-events/caseEventsTaskQueue';
import { temporalRetryInterceptors } from '../client/temporalRetry';
import { temporalConnectionOptions, type TemporalConfig } from '../config/temporalConfig';
import type { WorkerTuning } from './workerConfig';
import { workerDeploymentOptionsFor } from './workerVersioning';
import { bundlerOptionsFor, workflowsPath } from './workflowBundle';

export interface WorkerSetup {
  temporal: TemporalConfig;
  provider: ProviderConfig;
  /** Where the activities write provider data; the caller opens and closes it. */
  caseFile: CaseFileStore;
  /** A prebuilt bundle (tests build one and share it); otherwise the worker bundles `workflows/`. */
  workflowBundle?: WorkflowBundleOption;
  /** Payload encryption keys; `readPayloadKeys()` (environment or the embedded key file) when unset. */
  payloadKeys?: PayloadKeys;
  /** Concurrency limits and shutdown grace (readWorkerConfig); the SDK's defaults when unset. */
  tuning?: Partial<WorkerTuning>;
  /** Journey events to the LOS; unset: none are sent. */
  caseEvents?: CaseEventsConfig;
  /** Sent with every subscription (readWorkerConfig); unset: the workflows' default. */
  resourceQuietAfterOutcomeMs?: number;
  /** The Worker Deployment Version to poll as (readWorkerConfig); unset: an unversioned worker. */
  deploymentVersion?: WorkerDeploymentVersion;
  /** LOS events and read-model writes at once (readWorkerConfig); unset: 100. */
  caseEventSlots?: number;
}

export interface RunningWorker {
  worker: Worker;
  /** The case-events queue's worker (activities only). */
  caseEventsWorker: Worker;
  provider: ProviderClient;
  /** Resolves when the worker has stopped. */
  done: Promise<void>;
  stop(): Promise<void>;
}

export async function startWorker(setup: WorkerSetup): Promise<RunningWorker> {
  const payloadKeys = setup.payloadKeys ?? readPayloadKeys();
  const dataConverter = dataConverterFor(payloadKeys);
  const connectionOptions = temporalConnectionOptions(setup.temporal);
  const nativeConnection = await NativeConnection.connect(connectionOptions);
  const clientConnection = await Connection.connect({
    ...connectionOptions,
    interceptors: temporalRetryInterceptors(),
  });
  const client = temporalClientOn(clientConnection, setup.temporal.namespace, payloadKeys);
  const provider = new ProviderClient(setup.provider);
  const activities = createActivities({
    provider,
    caseFile: setup.caseFile,
    resources: {
      client,
      taskQueue: setup.temporal.taskQueue,
      quietAfterOutcomeMs: setup.resourceQuietAfterOutcomeMs,
    },
    caseEvents: setup.caseEvents,
  });
  const worker = await Worker.create({
    connection: nativeConnection,
    namespace: setup.temporal.namespace,
    taskQueue: setup.temporal.taskQueue,
    dataConverter,
    // All of them: the first try of a journey's LOS event or read-model write is a local activity,
    // which runs on the journey's own worker; later tries go to the case-events queue.
    activities,
    // A step whose provider call keeps failing hears of it, and shows `waiting` until the provider is back.
    interceptors: { activity: [providerOutageReporter(client)] },
    ...(setup.workflowBundle
      ? { workflowBundle: setup.workflowBundle }
      : { workflowsPath, bundlerOptions: bundlerOptionsFor(workflowsPath) }),
    ...setup.tuning,
    ...workerDeploymentOptionsFor(setup.deploymentVersion),
  });
  const caseEventsWorker = await Worker.create({
    connection: nativeConnection,
    namespace: setup.temporal.namespace,
    taskQueue: caseEventsTaskQueue(setup.temporal.taskQueue),
    dataConverter,
    activities: { notifyLos: activities.notifyLos, writeCaseState: activities.writeCaseState },
    maxConcurrentActivityTaskExecutions: setup.caseEventSlots ?? 100,
    ...(setup.tuning?.shutdownGraceTime !== undefined ? { shutdownGraceTime: setup.tuning.shutdownGraceTime } : {}),
    ...workerDeploymentOptionsFor(setup.deploymentVersion),
  });
  // The events derived from the case file (reminders, SLA breaches, expiries, operator actions):
  // swept and sent by every worker; a failed tick (the case file away) is simply tried again next time.
  const outbox = startCaseEventOutbox(setup.caseFile.pool, setup.caseEvents ?? { timeoutMs: 10_000 });
  // One stopping (or failing) stops the other: the process runs both or neither.
  const stopBoth = () => {
    for (const w of [worker, caseEventsWorker]) if (w.getState() === 'RUNNING') w.shutdown();
  };
  const runs = [worker.run(), caseEventsWorker.run()];
  for (const run of runs) run.then(stopBoth, stopBoth);
  const done = Promise.allSettled(runs).then(async (results) => {
    await outbox.stop();
    await clientConnection.close();
    await nativeConnection.close();
    const failed = results.find((r) => r.status === 'rejected');
    if (failed) throw failed.reason;
  });
  return {
    worker,
    caseEventsWorker,
    provider,
    done,
    async stop() {
      stopBoth();
      await done;
    },
  };
}
