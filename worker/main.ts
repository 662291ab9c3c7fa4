/** `npm run worker`: one worker process, configured from the environment (DESIGN.md §9). */
import { clientSecretExpiryWarning } from '../activities/clientSecretExpiry';
import { readProviderConfig } from '../activities/providerConfig';
import { exitOnConfigurationError } from './exitOnConfigurationError';
import { startWorker } from './createWorker';
import { prebuiltWorkflowBundle } from './prebuiltBundle';
import { installRuntimeLogging } from './runtimeLogging';
import { readTemporalConfig } from './temporalConfig';
import { readWorkerConfig } from './workerConfig';

async function main(): Promise<void> {
  const temporal = readTemporalConfig();
  const provider = readProviderConfig();
  const settings = readWorkerConfig();
  installRuntimeLogging(process.env, { metricsBindAddress: settings.metricsBindAddress });
  const expiry = clientSecretExpiryWarning(provider.clientSecretExpiresAt, new Date());
  if (expiry) console.warn(JSON.stringify({ level: 'warn', msg: expiry }));
  const running = await startWorker({ temporal, provider, tuning: settings.tuning, workflowBundle: prebuiltWorkflowBundle() });
  console.log(
    JSON.stringify({ msg: 'worker running', address: temporal.address, namespace: temporal.namespace, taskQueue: temporal.taskQueue, metrics: settings.metricsBindAddress ?? null, ...settings.tuning }),
  );
  const stop = () => void running.stop();
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  await running.done;
}

main().catch(exitOnConfigurationError);
