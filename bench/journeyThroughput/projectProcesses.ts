/**
 * The project's own processes for `npm run bench:throughput`, each as it is deployed and each a
 * process of its own so that its CPU is metered apart: the worker (`worker/main.ts`), the webhook
 * bridge (`webhook-bridge/main.ts`) and the case API (`case-api/main.ts`), joined to a running
 * stack whose own worker and bridge are stopped. The stack keeps what is not the project's: the
 * dev server, the provider simulator and the case file's database (embedded PGlite).
 */
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { providerEnvOf, workerEnvOf } from '../../cli/stackProcessEnv';
import { registerWebhook, type Stack } from '../../cli/stack';
import { generateApiKey, hashApiKey } from '../../case-api/apiKeys';
import { startChild } from '../../test/support/faultHarness/childProcess';
import { startBridgeProcess } from '../bridgeProcess';
import { startNodeProcess } from '../nodeProcess';

export interface ProjectProcesses {
  pids: { worker: number; bridge: number; caseApi: number };
  caseApiUrl: string;
  /** An origination key the case API takes. */
  originationKey: string;
  stop(): Promise<void>;
}

/**
 * Starts the three with `workflowBundle` (a bundle file), logs under `dir`, node given `nodeArgs`
 * (`--cpu-prof …` to profile them); stops the stack's worker and bridge.
 */
export async function startProjectProcesses(
  stack: Stack,
  workflowBundle: string,
  dir: string,
  nodeArgs: string[] = [],
): Promise<ProjectProcesses> {
  await stack.worker.stop();
  await stack.bridge.stop();
  const stops: (() => Promise<void>)[] = [];
  try {
    const workerEnv = workerEnvOf(stack, workflowBundle);
    const worker = await startChild('worker/main.ts', workerEnv, 'worker running', undefined, nodeArgs);
    stops.push(() => worker.stop());
    const bridge = await startBridgeProcess({
      temporalAddress: stack.temporal.address,
      taskQueue: stack.temporal.taskQueue,
      secret: stack.webhookSecret,
      spoolDir: path.join(dir, 'bridge-spool'),
      logFile: path.join(dir, 'bridge.log'),
      nodeArgs,
    });
    stops.push(() => bridge.stop());
    await registerWebhook(stack.provider, stack.simulator, bridge.url);
    const originationKey = generateApiKey('origination');
    const caseApi = await startNodeProcess({
      script: path.join('case-api', 'main.ts'),
      portVariable: 'CASE_API_PORT',
      env: {
        TEMPORAL_ADDRESS: stack.temporal.address,
        TEMPORAL_TASK_QUEUE: stack.temporal.taskQueue,
        DATABASE_URL: stack.caseFileUrl,
        ...providerEnvOf(stack),
        CASE_API_KEYS: `bench-origination:origination:${hashApiKey(originationKey).toString('hex')}`,
        CASE_API_SESSION_SECRET: randomBytes(32).toString('base64url'),
        // The load starts a round's journeys at once; the limit is not what is measured.
        CASE_API_RATE_LIMIT: '100000',
      },
      nodeArgs,
      logFile: path.join(dir, 'case-api.log'),
      name: 'case API',
    });
    stops.push(() => caseApi.stop());
    return {
      pids: { worker: worker.child.pid ?? -1, bridge: bridge.pid, caseApi: caseApi.pid },
      caseApiUrl: caseApi.baseUrl,
      originationKey,
      async stop() {
        for (const stop of stops.reverse()) await stop();
      },
    };
  } catch (error) {
    for (const stop of stops.reverse()) await stop();
    throw error;
  }
}
