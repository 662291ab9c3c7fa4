/**
 * A worker process as `npm run worker` builds it (settings from WORKER_*, the Runtime installed
 * with them first), on the tests' dev server and prebuilt bundle, so that it starts in seconds.
 * Spawned by workerTelemetry.test.ts; prints `ready` once polling, stops on SIGTERM.
 */
import { startWorker } from '../../worker/createWorker';
import { testCaseFile } from '../setup/testEnvironment';
import { installRuntimeLogging } from '../../worker/runtimeLogging';
import { readWorkerConfig } from '../../worker/workerConfig';

async function main(): Promise<void> {
  const settings = readWorkerConfig();
  installRuntimeLogging(process.env, { metricsBindAddress: settings.metricsBindAddress });
  const running = await startWorker({
    temporal: {
      address: process.env.TEST_TEMPORAL_ADDRESS ?? '',
      namespace: 'default',
      taskQueue: process.env.TEST_TASK_QUEUE ?? '',
    },
    provider: {
      baseUrl: 'http://127.0.0.1:9',
      authUrl: 'http://127.0.0.1:9/oauth',
      clientId: 'x',
      clientSecrets: ['x'],
      requestTimeoutMs: 1000,
    },
    workflowBundle: { codePath: process.env.TEST_WORKFLOW_BUNDLE ?? '' },
    tuning: settings.tuning,
    caseFile: await testCaseFile(),
  });
  console.log('ready');
  process.once('SIGTERM', () => void running.stop());
  await running.done;
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(String(error));
    process.exit(1);
  },
);
