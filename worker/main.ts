/** `npm run worker`: one worker process, configured from the environment. */
import { clientSecretExpiryWarning } from '../activities/clientSecretExpiry';
import { readCaseFileConfig } from '../case-file/config';
import { payloadKeyCipher } from '../case-file/fieldCipher';
import { openCaseFile } from '../case-file/store';
import { readPayloadKeys } from '../codec/payloadKeys';
import { readProviderConfig } from '../activities/providerConfig';
import { readCaseEventsConfig } from '../case-events/caseEventsConfig';
import { caseEventsTaskQueue } from '../case-events/caseEventsTaskQueue';
import { ConfigurationError } from '../config/environment';
import { exitOnConfigurationError } from '../config/exitOnConfigurationError';
import { startWorker } from './createWorker';
import { prebuiltWorkflowBundle } from './prebuiltBundle';
import { installRuntimeLogging } from './runtimeLogging';
import { readTemporalConfig } from '../config/temporalConfig';
import { readWorkerConfig } from './workerConfig';

async function main(): Promise<void> {
  const temporal = readTemporalConfig();
  const provider = readProviderConfig();
  const settings = readWorkerConfig();
  const caseFileConfig = readCaseFileConfig();
  const caseEvents = readCaseEventsConfig();
  installRuntimeLogging(process.env, { metricsBindAddress: settings.metricsBindAddress });
  const expiry = clientSecretExpiryWarning(provider.clientSecretExpiresAt, new Date());
  if (expiry) console.warn(JSON.stringify({ level: 'warn', msg: expiry }));
  const cipher = payloadKeyCipher(readPayloadKeys());
  const caseFile = await openCaseFile(caseFileConfig.url, caseFileConfig.poolSize, cipher).catch((error: Error) => {
    const hint = caseFileConfig.embedded
      ? ' (the embedded one runs with `npm start -- --keep`; or set DATABASE_URL)'
      : '';
    throw new ConfigurationError(`Cannot open the case file${hint}: ${error.message}`);
  });
  const running = await startWorker({
    temporal,
    provider,
    caseFile,
    caseEvents,
    tuning: settings.tuning,
    workflowBundle: prebuiltWorkflowBundle(),
    resourceQuietAfterOutcomeMs: settings.resourceQuietAfterOutcomeMs,
    deploymentVersion: settings.deploymentVersion,
    caseEventSlots: settings.caseEventSlots,
  });
  console.log(
    JSON.stringify({
      msg: 'worker running',
      address: temporal.address,
      namespace: temporal.namespace,
      taskQueue: temporal.taskQueue,
      caseEventsTaskQueue: caseEventsTaskQueue(temporal.taskQueue),
      caseEventSlots: settings.caseEventSlots,
      metrics: settings.metricsBindAddress ?? null,
      deploymentVersion: settings.deploymentVersion ?? null,
      ...settings.tuning,
    }),
  );
  const stop = () => void running.stop();
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  await running.done;
  await caseFile.close();
}

main().catch(exitOnConfigurationError);
