/** `npm run worker`: one worker process, configured from the environment (DESIGN.md §9). */
import { clientSecretExpiryWarning } from '../activities/clientSecretExpiry';
import { readProviderConfig } from '../activities/providerConfig';
import { readCaseEventsConfig } from '../case-api/notifications/caseEventsConfig';
import { exitOnConfigurationError } from './exitOnConfigurationError';
import { startWorker } from './createWorker';
import { installRuntimeLogging } from './runtimeLogging';
import { readTemporalConfig } from './temporalConfig';

async function main(): Promise<void> {
  const temporal = readTemporalConfig();
  const provider = readProviderConfig();
  const caseEvents = readCaseEventsConfig();
  installRuntimeLogging();
  const expiry = clientSecretExpiryWarning(provider.clientSecretExpiresAt, new Date());
  if (expiry) console.warn(JSON.stringify({ level: 'warn', msg: expiry }));
  const running = await startWorker({ temporal, provider, caseEvents });
  console.log(JSON.stringify({ msg: 'worker running', address: temporal.address, namespace: temporal.namespace, taskQueue: temporal.taskQueue }));
  const stop = () => void running.stop();
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  await running.done;
}

main().catch(exitOnConfigurationError);
